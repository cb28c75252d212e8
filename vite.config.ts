// The MissionOwner console (console/): plain TypeScript and the DOM, bundled by Vite into
// dist/console, which `missionweave serve` serves at `/` (src/transport/consoleRoute.ts).
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'console',
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    // The page runs under `default-src 'self'`: no inline script or style, no data: URLs.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
});
