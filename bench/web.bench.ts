// First paint of the built app as a phone on a slow network sees it: the real server (apps/server/dist/main.js, as
// `npm start` runs it) on a fresh data directory, and Lighthouse's default mobile preset in the system's Chromium on
// the landing page, the login page and the dashboard (signed in), each on a cold cache. Prints one line per page:
// bytes transferred (all and JavaScript) and the performance, accessibility and best-practices scores.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORAGE_KEYS, type Session } from '@adpilot/contracts';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = join(root, 'apps/server/dist/main.js');
const port = Number(process.env.BENCH_WEB_PORT ?? 3202);
const origin = `http://127.0.0.1:${port}`;
const chromePath = process.env.CHROME_PATH ?? CHROMIUM_PATH;
const chromeFlags = CHROMIUM_FLAGS;
/** A folder to keep each page's full Lighthouse report in (JSON), to read what an audit flagged. */
const reportsDir = process.env.BENCH_WEB_REPORTS;

/**
 * Builds unless the bundles were built from exactly these sources (`scripts/build-fresh.mjs`, the e2e suite's own
 * check), so the figures are those of the code.
 */
function buildIfNeeded(): void {
  // The bench runner sets NODE_ENV=test; a build under it would be React's development bundle, not what users get.
  const result = spawnSync(process.execPath, [join(root, 'scripts/build-fresh.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--enable-source-maps', serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not answer /api/health within 60 s');
}

async function registerUser(): Promise<Session> {
  const response = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Advertiser', email: 'bench-web@example.com', password: 'Bench-web-2026!' }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: Session }).data;
}

type Audited = { page: string; totalKb: number; jsKb: number; performance: number; accessibility: number };
type NetworkItem = { transferSize?: number; resourceType?: string };

/**
 * One Lighthouse run on a cold cache. Lighthouse's own reset clears the origin's storage too, which would sign the
 * dashboard out: a signed-in page keeps its storage and has only the browser cache cleared.
 */
async function audit(browser: Browser, path: string, session?: Session): Promise<Audited> {
  const page = await browser.newPage();
  try {
    if (session) {
      // The SPA keeps its session in local storage (apps/web/src/lib/session-storage.ts): set it on the origin.
      await page.goto(`${origin}/favicon.svg`);
      const stored = {
        [STORAGE_KEYS.token]: session.token,
        [STORAGE_KEYS.refreshToken]: session.refreshToken,
        [STORAGE_KEYS.user]: JSON.stringify(session.user),
      };
      await page.evaluate(`Object.entries(${JSON.stringify(stored)}).forEach(([k, v]) => localStorage.setItem(k, v))`);
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    }
    const result = await lighthouse(
      `${origin}${path}`,
      { output: 'json', logLevel: 'error', disableStorageReset: Boolean(session) },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${lhr.runtimeError.message}`);
    if (reportsDir) {
      mkdirSync(reportsDir, { recursive: true });
      writeFileSync(join(reportsDir, `${path === '/' ? 'landing' : path.slice(1)}.json`), JSON.stringify(lhr));
    }
    const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
    if (finalPath !== path) throw new Error(`${path} ended on ${finalPath}: the run did not measure that page`);
    const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ??
      []) as NetworkItem[];
    const bytes = (filter: (item: NetworkItem) => boolean) =>
      items.filter(filter).reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const line = {
      page: path,
      totalKb: bytes(() => true),
      jsKb: bytes((item) => item.resourceType === 'Script'),
      performance: score('performance'),
      accessibility: score('accessibility'),
    };
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
      .filter((a) => a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
      .map((a) => a.id);
    console.log(
      `web ${path}: ${line.totalKb.toFixed(1)} KB transferred (JavaScript ${line.jsKb.toFixed(1)} KB); ` +
        `performance ${line.performance}, accessibility ${line.accessibility}, ` +
        `best practices ${score('best-practices')}; FCP ${fmtMs(lhr, 'first-contentful-paint')}, ` +
        `LCP ${fmtMs(lhr, 'largest-contentful-paint')}, TBT ${fmtMs(lhr, 'total-blocking-time')}; ` +
        // Lighthouse's own measure of the machine's speed at the time (a quiet desktop scores about 1,000 or more).
        `CPU benchmark ${Math.round(lhr.environment.benchmarkIndex)}` +
        (failing.length ? `; flagged: ${failing.join(', ')}` : ''),
    );
    return line;
  } finally {
    await page.close();
  }
}

function fmtMs(lhr: { audits: Record<string, { numericValue?: number }> }, id: string): string {
  return `${Math.round(lhr.audits[id]?.numericValue ?? 0)} ms`;
}

buildIfNeeded();
const dataDir = mkdtempSync(join(tmpdir(), 'adpilot-bench-web-'));
const server = await startServer(dataDir);
const chrome = await chromeLauncher.launch({ chromePath, chromeFlags, port: port + 1 });
try {
  const session = await registerUser();
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  try {
    await audit(browser, '/');
    await audit(browser, '/login');
    await audit(browser, '/dashboard', session);
    // Simulated throttling scales the main thread's real work: on a busy machine blocking time reads higher.
    console.log(
      `web: load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await browser.disconnect();
  }
} finally {
  chrome.kill();
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(dataDir, { recursive: true, force: true });
}
