import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // A feature's index.ts only re-exports what other features use (eslint.config.js, webZones), so
      // it has no side effects: a screen brings in through it only what it takes. Otherwise the
      // dashboard's import of features/reports/index.ts puts every part of reports a later screen
      // uses into the first load (18 KB gzip more, past its budget in docs/performance.md).
      treeshake: { moduleSideEffects: [{ test: /[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/, sideEffects: false }] },
      output: {
        codeSplitting: {
          groups: [
            // React is every screen's; Mantine is left to the bundler, which puts the components
            // the first screens use with them and the others with the screens that use them
            // (a group of all of Mantine made the first load 27 KB larger, docs/performance.md).
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 },
            // Schemas are for the screens that validate with them, not for the first screens.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
});
