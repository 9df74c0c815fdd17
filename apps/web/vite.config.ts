import { defineConfig } from 'vite';
import { contractPaths } from './contract-paths';
import { precompress } from './precompress';

// Vite 8 transforms TSX with oxc; no React plugin needed.
export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [contractPaths(), precompress()],
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
      output: {
        // Three chunks for a first visit instead of 120 (issue 30 point 5; docs/decisions/web.md): each group
        // takes the modules named by its test and, recursively, everything they import statically, so what
        // a page needs arrives in one file and compresses as one (brotli finds repeats across antd's
        // modules; 98 files of the shell and portal compressed one by one were 269 KB, together 210 KB).
        // Every other page keeps its own chunks and imports what it shares from these.
        codeSplitting: {
          groups: [
            // Vite's preload helper, which main.tsx's import() calls need: on its own, so the tiny entry
            // does not import the sign-in chunk (and its stylesheet) statically before the first paint.
            { name: 'preload', test: /vite\/preload-helper/, priority: 3 },
            // The sign-in page: React, the router, the query client, the app's boot and the page itself.
            {
              name: 'boot',
              test: /\/apps\/web\/src\/(app\/boot|features\/auth\/pages\/login-page)\.tsx$/,
              priority: 2,
            },
            // What signing in loads: antd's root, the shell (top bar, navigation, help panel), the portal and
            // the 提示 dialog that opens on it. Public pages in the antd root fetch it too.
            {
              name: 'shell',
              test: /\/apps\/web\/src\/(app\/antd-root|app\/layout\/main-layout|features\/dashboard\/pages\/dashboard-page|features\/customer\/components\/missing-tax-dialog)\.tsx$/,
              priority: 1,
            },
          ],
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
