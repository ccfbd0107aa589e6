import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** Builds the inspector's web app into dist/web, served by `scratchpad ui` (src/ui/static-files.ts). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // One small bundle: no preload polyfill (it would need an inline script the CSP forbids).
    modulePreload: false,
    assetsInlineLimit: 0,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
