// The soak's tallies: every request by route (status, latency, minute) and the processes' RSS samples, and the
// tables printed from them.

export interface Sample {
  route: string;
  api: number;
  minute: number;
  ms: number;
  status: number;
  error: boolean;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

function table(rows: (string | number)[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => row.map((cell, column) => String(cell).padStart(widths[column]!)).join('  ')).join('\n');
}

function byRoute(samples: Sample[]): Map<string, Sample[]> {
  const routes = new Map<string, Sample[]>();
  for (const sample of samples) routes.set(sample.route, [...(routes.get(sample.route) ?? []), sample]);
  return new Map([...routes].sort(([a], [b]) => a.localeCompare(b)));
}

/** Requests and errors by route and API process, and p50/p99 for the whole run and for the time after the warm-up. */
export function routeTable(samples: Sample[], warmUpMinutes: number): { text: string; errors: number } {
  const rows: (string | number)[][] = [
    ['route', 'requests', 'api-1', 'api-2', 'errors', 'p50 ms', 'p99 ms', 'p99 after warm-up'],
  ];
  for (const [route, list] of byRoute(samples)) {
    const times = list.map((s) => s.ms);
    const warm = list.filter((s) => s.minute >= warmUpMinutes).map((s) => s.ms);
    rows.push([
      route,
      list.length,
      list.filter((s) => s.api === 0).length,
      list.filter((s) => s.api === 1).length,
      list.filter((s) => s.error).length,
      ms(percentile(times, 50)),
      ms(percentile(times, 99)),
      ms(percentile(warm, 99)),
    ]);
  }
  const errors = samples.filter((s) => s.error).length;
  rows.push(['all', samples.length, '', '', errors, '', '', '']);
  return { text: table(rows), errors };
}

export interface StabilityRule {
  /** How much slower the late minutes' p99 may be than the early minutes' (0.5: up to 1.5 times). */
  tolerance: number;
  /** A late p99 at or under this many ms is stable whatever the early one was. */
  floorMs: number;
}

/**
 * Whether each route's p99 held over the run. Each minute after the warm-up has its own p99 per route; the early
 * window is the first third of those minutes, the late window the last third (at least one minute each), and each
 * window's figure is the median of its minutes' p99s, so one slow minute (a busy moment of a shared machine, the
 * 5-minute slot firing) moves neither. A route is stable when its late figure is at most its early figure times
 * (1 + tolerance), or at most the floor. The trend (least squares over every minute after the warm-up, ms per
 * minute) is printed for the reader, not judged.
 */
export function stabilityTable(
  samples: Sample[],
  warmUpMinutes: number,
  minutes: number,
  rule: StabilityRule,
): { text: string; unstable: string[]; windows: string } {
  const after = Array.from({ length: Math.max(0, Math.ceil(minutes) - warmUpMinutes) }, (_, i) => warmUpMinutes + i);
  const size = Math.max(1, Math.round(after.length / 3));
  const early = after.slice(0, size);
  const late = after.slice(-size);
  const median = (values: number[]) => percentile(values, 50);
  const rows: (string | number)[][] = [
    ['route', 'p99 per minute after warm-up', 'early', 'late', 'late/early', 'trend ms/min', 'stable'],
  ];
  const unstable: string[] = [];
  for (const [route, list] of byRoute(samples)) {
    const p99Of = (minute: number) =>
      percentile(
        list.filter((s) => s.minute === minute).map((s) => s.ms),
        99,
      );
    const perMinute = after.map((minute) => [minute, p99Of(minute)] as const).filter(([, p99]) => !Number.isNaN(p99));
    const window = (chosen: number[]) => median(perMinute.filter(([m]) => chosen.includes(m)).map(([, p99]) => p99));
    const [from, to] = [window(early), window(late)];
    const stable = Number.isNaN(to) || to <= rule.floorMs || to <= from * (1 + rule.tolerance);
    if (!stable) unstable.push(route);
    rows.push([
      route,
      perMinute.map(([, p99]) => p99.toFixed(0)).join(' '),
      ms(from),
      ms(to),
      Number.isNaN(from) || Number.isNaN(to) ? '-' : (to / from).toFixed(2),
      slope(perMinute).toFixed(1),
      stable ? 'yes' : 'NO',
    ]);
  }
  const named = (window: number[]) =>
    window.length === 1 ? `minute ${window[0]! + 1}` : `minutes ${window[0]! + 1}-${window.at(-1)! + 1}`;
  return { text: table(rows), unstable, windows: `early ${named(early)}, late ${named(late)}` };
}

/** The least-squares slope of [x, y] points (0 for fewer than two). */
function slope(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const num = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const den = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** p50/p99 of each route in each minute of the run ("p50/p99", ms). */
export function minuteTable(samples: Sample[], minutes: number): string {
  const header = ['route', ...Array.from({ length: Math.ceil(minutes) }, (_, minute) => `min ${minute + 1}`)];
  const rows: (string | number)[][] = [header];
  for (const [route, list] of byRoute(samples)) {
    const cells = header.slice(1).map((_, minute) => {
      const times = list.filter((s) => s.minute === minute).map((s) => s.ms);
      return times.length ? `${percentile(times, 50).toFixed(0)}/${percentile(times, 99).toFixed(0)}` : '-';
    });
    rows.push([route, ...cells]);
  }
  return table(rows);
}

export interface RssSeries {
  name: string;
  /** [seconds since the load began, MB]. */
  samples: [number, number][];
}

/**
 * RSS of each process: at the end of the warm-up (median of the minute after it) against the end of the run (median
 * of the last minute), and the growth between them.
 */
export function rssTable(series: RssSeries[], warmUpSeconds: number, endSeconds: number) {
  const median = (values: number[]) => percentile(values, 50);
  const rows: (string | number)[][] = [['process', 'start MB', 'after warm-up MB', 'end MB', 'max MB', 'growth']];
  let worst = 0;
  for (const { name, samples } of series) {
    const inRange = (from: number, to: number) => samples.filter(([t]) => t >= from && t < to).map(([, mb]) => mb);
    const warm = median(inRange(warmUpSeconds, warmUpSeconds + 60));
    const end = median(inRange(endSeconds - 60, endSeconds + 1));
    const growth = (end - warm) / warm;
    worst = Math.max(worst, growth);
    rows.push([
      name,
      samples[0]?.[1].toFixed(0) ?? '-',
      warm.toFixed(0),
      end.toFixed(0),
      Math.max(...samples.map(([, mb]) => mb)).toFixed(0),
      `${(growth * 100).toFixed(1)} %`,
    ]);
  }
  return { text: table(rows), worstGrowth: worst };
}

/** [seconds since the load began, the machine's 1-minute load average, CPU seconds the four processes used so far]. */
export type MachineSample = [number, number, number];

/**
 * Per minute: the machine's load average at its end and the CPU the four server processes used in it (100 % is
 * one core), so a slow minute can be told apart from a busy machine.
 */
export function machineTable(samples: MachineSample[], minutes: number): string {
  const header = ['', ...Array.from({ length: Math.ceil(minutes) }, (_, minute) => `min ${minute + 1}`)];
  const at = (seconds: number) =>
    samples.reduce((best, s) => (Math.abs(s[0] - seconds) < Math.abs(best[0] - seconds) ? s : best));
  const load: string[] = ['load average'];
  const cpu: string[] = ['server CPU %'];
  for (let minute = 0; minute < header.length - 1; minute += 1) {
    const [start, end] = [at(minute * 60), at((minute + 1) * 60)];
    load.push(end[1].toFixed(1));
    cpu.push(end[0] > start[0] ? (((end[2] - start[2]) / (end[0] - start[0])) * 100).toFixed(0) : '-');
  }
  return table([header, load, cpu]);
}
