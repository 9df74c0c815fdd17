import { defineConfig } from 'vite';

// Vite 8 transforms TSX with oxc; no React plugin needed.
export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      onwarn(warning, warn) {
        // antd marks its modules "use client" for React Server Components; irrelevant in a SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
