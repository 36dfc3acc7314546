// Starts the product for the e2e suite: a fresh data folder, the embedded default, the built SPA.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = process.env.E2E_PORT ?? '3100';
const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-e2e-'));
// The bundle `npm start` runs (built by `npm run build`, which `test:e2e` runs first).
const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    // Every browser of the suite shares 127.0.0.1, and each page load is dozens of requests (chunks, API calls):
    // the default flood limit of 600 a minute per address is sized for one user, not for a whole suite at once.
    RATE_LIMIT_MAX: '6000',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
