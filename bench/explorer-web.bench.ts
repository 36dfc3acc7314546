// The explorer's table with 5,000 ads (issue 28): the built SPA in the system's Chromium, its API answered in the
// page (5,000 rows over 25 pages of the list's cursor), the table scrolled from top to bottom frame by frame.
// Prints the rows drawn in the document, the frames' p50 / p95 / p99 and longest time, and how many frames missed
// a 60 Hz deadline. The table is virtualised (ADR 0107): what is drawn stays a few dozen rows whatever the count.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/web/dist');
const port = Number(process.env.BENCH_EXPLORER_WEB_PORT ?? 3204);
const ROWS = 5_000;
const PAGE = 200;

function buildIfMissing(): void {
  if (existsSync(join(dist, 'index.html'))) return;
  const built = spawnSync('npx', ['vite', 'build'], {
    cwd: join(root, 'apps/web'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) throw new Error('the web build failed');
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** The built SPA: files as they are, every other path the index (the router's). */
function serve() {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = join(dist, path);
    const found =
      file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : join(dist, 'index.html');
    response.writeHead(200, { 'content-type': TYPES[extname(found)] ?? 'application/octet-stream' });
    response.end(readFileSync(found));
  });
  return new Promise<typeof server>((done) => server.listen(port, '127.0.0.1', () => done(server)));
}

const ACCOUNT = '00000000-0000-4000-8000-0000000000c1';
const metrics = (seed: number) => ({
  spend: 100 + (seed % 900),
  results: seed % 13,
  cpa: seed % 13 ? (100 + (seed % 900)) / (seed % 13) : null,
  roas: (seed % 40) / 10,
  ctr: (seed % 30) / 10,
  cpc: 2 + (seed % 7),
  cpm: 60 + (seed % 50),
  frequency: 1 + (seed % 10) / 10,
  impressions: 1000 + seed,
  clicks: 10 + (seed % 200),
});
const row = (index: number) => {
  const id = `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
  return {
    id,
    adAccountId: ACCOUNT,
    level: 'ad',
    externalId: String(238000000 + index),
    name: `Ad ${index + 1} – carousel ${index % 17}`,
    parents: { campaign: { id, name: `Campaign ${index % 40}` }, adSet: { id, name: `Ad set ${index % 200}` } },
    status: 'ACTIVE',
    effectiveStatus: index % 9 ? 'ACTIVE' : 'PAUSED',
    budget: { daily: 1000, lifetime: null, holderLevel: 'adset', holderId: id },
    currency: 'THB',
    metrics: metrics(index),
    previous: metrics(index + 3),
    rules: index % 5 ? [] : [{ id, name: 'Stop loss' }],
    lastAction: null,
    pendingProposals: index % 11 ? 0 : 1,
    hold: null,
    externalChange: null,
    learning: index % 7 ? null : 'LEARNING',
    editable: true,
  };
};
const window = {
  adAccountId: ACCOUNT,
  name: 'Bench account',
  currency: 'THB',
  timezone: 'Asia/Bangkok',
  from: '2026-09-02',
  to: '2026-11-30',
  previousFrom: '2026-06-04',
  previousTo: '2026-09-01',
  today: '2026-12-01',
  settlingFrom: '2026-11-18',
  firstDataDay: '2026-01-01',
  readOnly: false,
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** What a trace of the scroll records: the main thread's tasks, frames, style, layout, paint and raster. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
];

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * The renderer's work per frame in the trace (`BENCH_TRACE=<file>`): the main thread's script, style recalculation,
 * layout, pre-paint and paint, the raster threads' raster, each as milliseconds a frame and how many times a frame.
 */
function traceSummary(path: string, frames: number): string {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const threads = new Map<string, string>();
  for (const event of events)
    if (event.ph === 'M' && event.name === 'thread_name')
      threads.set(`${event.pid}:${event.tid}`, event.args?.name ?? '');
  const main = new Set([...threads].filter(([, name]) => name === 'CrRendererMain').map(([key]) => key));
  const totals = new Map<string, { ms: number; count: number }>();
  const add = (name: string, dur: number) => {
    const total = totals.get(name) ?? { ms: 0, count: 0 };
    total.ms += dur / 1000;
    total.count += 1;
    totals.set(name, total);
  };
  for (const event of events) {
    if (event.ph !== 'X' || event.dur === undefined) continue;
    const thread = threads.get(`${event.pid}:${event.tid}`) ?? '';
    if (main.has(`${event.pid}:${event.tid}`)) {
      if (['FunctionCall', 'EventDispatch', 'FireAnimationFrame', 'RunMicrotasks', 'TimerFire'].includes(event.name))
        add(`script:${event.name}`, event.dur);
      if (['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'Commit'].includes(event.name))
        add(event.name, event.dur);
      if (event.name === 'RunTask') add('main task', event.dur);
    } else if (
      /Raster|Compositor/.test(thread) &&
      ['RasterTask', 'TileManager::FlushAndIssueSignals'].includes(event.name)
    ) {
      add(`raster (${thread.replace(/\d+$/, '')})`, event.dur);
    }
  }
  const parts = [...totals]
    .sort(([, a], [, b]) => b.ms - a.ms)
    .map(([name, { ms, count }]) => `${name} ${round1(ms / frames)} ms (${round1(count / frames)}×)`);
  return `trace, per frame of ${frames}: ${parts.join(', ')}`;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The scroll's CPU profile (`BENCH_CPU_PROFILE=<file>`): the functions with the most self time, a frame's share. */
function profileSummary(profile: CpuProfile, frames: number): string {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byNode.get(id);
    const file = frame?.url.split('/').pop() ?? '';
    const key = `${frame?.functionName || '(anonymous)'} ${file}:${frame?.lineNumber ?? 0}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[index] ?? 0) / 1000);
  });
  const top = [...self]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 25)
    .map(([name, ms]) => `  ${round1(ms / frames)} ms  ${name}`);
  // Total time: each sample counted once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes as { id: number; children?: number[] }[])
    for (const child of node.children ?? []) parent.set(child, node.id);
  const total = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byNode.get(at);
      const name = frame?.functionName || '(anonymous)';
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + (profile.timeDeltas?.[index] ?? 0) / 1000);
    }
  });
  const inclusive = [...total]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 30)
    .map(([name, ms]) => `  ${round1(ms / frames)} ms  ${name}`);
  return `CPU profile, self time a frame of ${frames}:\n${top.join('\n')}\ntotal time a frame:\n${inclusive.join('\n')}`;
}

buildIfMissing();
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const user = {
    id: 'bench-user',
    name: 'Bench',
    email: 'bench@example.com',
    role: 'user',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  await context.addInitScript((stored) => {
    // Runs in the page: the bench's own types have no DOM.
    const storage = (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } })
      .localStorage;
    storage.setItem('language', 'en');
    storage.setItem('token', 'bench');
    storage.setItem('refreshToken', 'bench');
    storage.setItem('user', stored);
  }, JSON.stringify(user));
  const page = await context.newPage();
  page.on('crash', () => console.error('the page crashed'));
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.route('**/api/**', async (route) => {
    const url = new URL(route.request().url());
    const path = url.pathname.replace(/^\/api/, '');
    const json = (body: unknown) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
    if (path === '/auth/me') return json({ success: true, data: user });
    if (path === '/workspaces')
      return json({ success: true, data: [{ id: 'w', name: 'Bench', role: 'owner', personal: true }] });
    if (path === '/ad-accounts')
      return json({
        success: true,
        data: [
          {
            id: ACCOUNT,
            facebook_account_name: 'Bench account',
            currency: 'THB',
            timezone: 'Asia/Bangkok',
            sync_status: 'idle',
          },
        ],
      });
    if (path === '/entities') {
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const data = Array.from({ length: Math.min(PAGE, ROWS - start) }, (_, offset) => row(start + offset));
      const next = start + PAGE < ROWS ? String(start + PAGE) : null;
      return json({
        success: true,
        data,
        totals: [{ currency: 'THB', count: ROWS, metrics: metrics(1), previous: metrics(2) }],
        accounts: [window],
        total: ROWS,
        nextCursor: next,
      });
    }
    return json({ success: true, data: [] });
  });
  await page.goto(`http://127.0.0.1:${port}/campaigns?level=ad&window=last_90d`);
  const scroller = page.getByTestId('entity-table-scroller');
  await scroller.waitFor({ timeout: 60_000 });
  // Every page of the cursor list, loaded by scrolling to the end until the last row is there.
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const loaded = await page.evaluate(`(() => {
      const element = document.querySelector('[data-testid="entity-table-scroller"]');
      element.scrollTop = element.scrollHeight;
      return element.querySelector('table').getAttribute('aria-rowcount');
    })()`);
    if (process.env.BENCH_DEBUG) console.error('loaded', loaded);
    if (Number(loaded) >= ROWS + 2) break;
    await page.waitForTimeout(100);
  }
  const shot = process.env.BENCH_SCREENSHOT;
  if (shot) {
    // The table as drawn, then scrolled sideways: the name and the actions stay in place.
    await page.evaluate(`document.querySelector('[data-testid="entity-table-scroller"]').scrollTop = 64 * 2000`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shot}-top.png` });
    await page.evaluate(`document.querySelector('[data-testid="entity-table-scroller"]').scrollLeft = 400`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${shot}-sideways.png` });
  }
  // Sent as text: the bundler would name the closures with a helper the page does not have. The same loop scrolls
  // the table and, for the floor, an empty scroller of the table's size and scroll height.
  const scrollLoop = (selector: string) => `new Promise((done) => {
    const element = document.querySelector('${selector}');
    element.scrollTop = 0;
    const frames = [];
    let last = performance.now();
    let drawn = 0;
    const step = () => {
      const now = performance.now();
      frames.push(now - last);
      last = now;
      drawn = Math.max(drawn, element.querySelectorAll('tbody tr:not([aria-hidden])').length);
      if (element.scrollTop + element.clientHeight >= element.scrollHeight - 1) {
        const table = element.querySelector('table');
        done({ frames: frames.slice(1), drawn, rows: table ? Number(table.getAttribute('aria-rowcount')) - 2 : 0 });
        return;
      }
      // 160 px a frame (about 9,600 px a second at 60 Hz): a hard flick through the whole list.
      element.scrollTop += 160;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })`;
  type Figures = { frames: number[]; drawn: number; rows: number };
  const tracePath = process.env.BENCH_TRACE;
  if (tracePath) await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
  const profilePath = process.env.BENCH_CPU_PROFILE;
  const cdp = profilePath ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  // Let the last page's rendering settle before the clock starts.
  await page.waitForTimeout(500);
  const figures = (await page.evaluate(scrollLoop('[data-testid="entity-table-scroller"]'))) as Figures;
  if (cdp && profilePath) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(profilePath, JSON.stringify(profile));
    console.log(profileSummary(profile, figures.frames.length));
  }
  if (tracePath) {
    await browser.stopTracing();
    console.log(traceSummary(tracePath, figures.frames.length));
  }
  await page.evaluate(`(() => {
    const table = document.querySelector('[data-testid="entity-table-scroller"]');
    const box = table.getBoundingClientRect();
    const empty = document.createElement('div');
    empty.id = 'bench-empty-scroller';
    empty.style.cssText = 'position:fixed;left:' + box.left + 'px;top:' + box.top + 'px;width:' + box.width +
      'px;height:' + box.height + 'px;overflow:auto;background:#fff;z-index:100';
    const inner = document.createElement('div');
    inner.style.height = table.scrollHeight + 'px';
    empty.append(inner);
    document.body.append(empty);
  })()`);
  const floor = (await page.evaluate(scrollLoop('#bench-empty-scroller'))) as Figures;
  const round = (value: number) => Math.round(value * 10) / 10;
  const summary = ({ frames }: Figures) => {
    const sorted = [...frames].sort((a, b) => a - b);
    const missed = frames.filter((frame) => frame > 1000 / 60 + 1).length;
    return (
      `frame p50 ${round(percentile(sorted, 50))} ms, p95 ${round(percentile(sorted, 95))} ms, ` +
      `p99 ${round(percentile(sorted, 99))} ms, max ${round(sorted.at(-1) ?? 0)} ms; ${missed} over 17.7 ms`
    );
  };
  console.log(
    `explorer web: ${figures.rows} rows, ${figures.drawn} drawn at most, ${figures.frames.length} frames scrolled; ` +
      `${summary(figures)}; an empty scroller of the same size: ${summary(floor)} ` +
      `(load ${loadavg()[0]?.toFixed(1)})`,
  );
} finally {
  await browser.close();
  server.close();
}
