import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';
import { routePreloads } from './build/route-preloads.ts';
import packageJson from './package.json' with { type: 'json' };

const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The pages opened first by address (ADR 0056); written before precompress runs on the output.
    routePreloads({
      login: 'src/features/auth/components/login-page.tsx',
      register: 'src/features/auth/components/register-page.tsx',
      dashboard: 'src/features/dashboard/components/dashboard-page.tsx',
    }),
    precompress(),
  ],
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
