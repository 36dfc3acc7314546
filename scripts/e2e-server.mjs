// Starts the product for the e2e suite: a fresh data folder, the embedded default, the built SPA.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
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
    // Likewise every sign-up of the suite comes from 127.0.0.1.
    REGISTRATION_LIMIT_PER_HOUR: '0',
    // The operator's allow-list, as for a model server on the same machine: the Settings spec saves its local
    // OpenAI-compatible fake as the AI server, which the address policy refuses otherwise (ADR 0097).
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

// The first registered user is the instance admin: register the suite's admin (e2e/session.ts) before any test can
// register someone else, and only then answer the readiness address Playwright waits for.
const base = `http://127.0.0.1:${port}`;
async function registerAdmin() {
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'E2E Admin', email: 'admin@e2e.adpilot.test', password: 'E2e-Admin-Pass1' }),
  });
  if (!response.ok) throw new Error(`registering the e2e admin failed: ${response.status} ${await response.text()}`);
}
registerAdmin().then(
  () => createServer((_request, response) => response.end('ready')).listen(Number(port) + 1, '127.0.0.1'),
  (error) => {
    console.error(error);
    child.kill('SIGTERM');
    process.exit(1);
  },
);
