import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';
import packageJson from './package.json' with { type: 'json' };

const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(packageJson.version) },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      // The built-in Meta sandbox serves its OAuth dialog and Ads Manager pages from the API process.
      '/sandbox': { target: apiTarget, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
