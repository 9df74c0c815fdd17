import { defineConfig } from 'vite';
import { precompress } from './precompress';

// Vite 8 transforms TSX with oxc; no React plugin needed.
export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // The shared contract's modules only define calls and schemas: a page takes the ones it imports, not
        // the whole barrel (zod-locale.ts configures zod, the one module imported for its effect). The web's
        // own modules likewise: a feature's barrel (features/message/index.ts …) brings only what is used,
        // so a dialog the shell loads when it opens is not in the shell's chunk through the barrel. Their
        // stylesheets are imported for their effect and keep it; no script of apps/web/src is imported for
        // its effect alone (docs/decisions-12-first-load.md).
        moduleSideEffects: (id: string) => {
          if (id.includes('/packages/shared/src/')) return id.endsWith('zod-locale.ts');
          if (id.includes('/apps/web/src/')) return !/\.tsx?$/.test(id);
          return true;
        },
      },
      onwarn(warning, warn) {
        // antd marks its modules "use client" for React Server Components; irrelevant in a SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
