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
        // the whole barrel (zod-locale.ts configures zod, the one module imported for its effect).
        moduleSideEffects: (id: string) => !id.includes('/packages/shared/src/') || id.endsWith('zod-locale.ts'),
      },
      onwarn(warning, warn) {
        // antd marks its modules "use client" for React Server Components; irrelevant in a SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
