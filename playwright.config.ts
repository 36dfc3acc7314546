import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

/** e2e runs against the built SPA served by the real server on the embedded default (PGlite + sandbox). */
export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // Four browsers at once on two cores: a test spends about half its time waiting (the server, the browser's
  // rendering, the sandbox's latency), which a second test per core fills (ADR 0199). E2E_WORKERS overrides it.
  workers: Number(process.env.E2E_WORKERS ?? 4),
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    browserName: 'chromium',
    // A failed test keeps its trace with the page's DOM at every step, and its screenshot at the end; the trace's
    // film of screenshots is left out: it cost about a quarter of the suite's CPU time (mobile-layout and
    // rule-builder-layout: 32-34 s of CPU with it, 24 s without, 20 s with no trace at all).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
  },
  projects: [
    { name: 'app', testIgnore: /instance-settings\.spec\.ts/ },
    // Changes every user's providers: runs alone, once the rest is done (e2e/instance-settings.spec.ts).
    { name: 'instance-settings', testMatch: /instance-settings\.spec\.ts/, dependencies: ['app'] },
  ],
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    // Answered once the server is up and the suite's admin is registered (scripts/e2e-server.mjs).
    url: `http://127.0.0.1:${port + 1}/ready`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
  },
});
