import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * The screenshot tour (`npm run screenshots`, docs/start-here.md): every screen in both languages, both themes and
 * both widths, full page, into `screenshots/` with an `index.html` contact sheet. Not part of `npm test`: it asserts
 * only that every screen opens, and its pictures are for a person to look at.
 */
const port = Number(process.env.SCREENSHOTS_PORT ?? 3300);

export default defineConfig({
  ...base,
  testDir: 'e2e/tour',
  testMatch: /\.tour\.ts$/,
  outputDir: 'test-results/screenshots',
  reporter: [['list']],
  globalTeardown: './e2e/tour/contact-sheet.ts',
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}`, trace: 'off' },
  projects: [
    { name: 'seed', testMatch: /seed\.tour\.ts/ },
    { name: 'tour', testMatch: /screenshots\.tour\.ts/, dependencies: ['seed'] },
  ],
  webServer: {
    // A fresh data folder every time (scripts/e2e-server.mjs), never a server left running.
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${port + 1}/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
  },
});
