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

/**
 * Requests and errors by route and API process, and p50/p99 for the whole run and for each half of the time after
 * the warm-up; `slower` lists the routes whose second-half p99 is over twice the first's and 20 ms more (a machine
 * this loaded moves by less).
 */
export function routeTable(
  samples: Sample[],
  warmUpMinutes: number,
  minutes: number,
): { text: string; errors: number; slower: string[] } {
  const half = (warmUpMinutes + minutes) / 2;
  const rows: (string | number)[][] = [
    ['route', 'requests', 'api-1', 'api-2', 'errors', 'p50 ms', 'p99 ms', 'p99 1st half', 'p99 2nd half'],
  ];
  const slower: string[] = [];
  for (const [route, list] of byRoute(samples)) {
    const times = list.map((s) => s.ms);
    const first = percentile(
      list.filter((s) => s.minute >= warmUpMinutes && s.minute < half).map((s) => s.ms),
      99,
    );
    const second = percentile(
      list.filter((s) => s.minute >= half).map((s) => s.ms),
      99,
    );
    if (second > first * 2 && second - first > 20) slower.push(route);
    rows.push([
      route,
      list.length,
      list.filter((s) => s.api === 0).length,
      list.filter((s) => s.api === 1).length,
      list.filter((s) => s.error).length,
      ms(percentile(times, 50)),
      ms(percentile(times, 99)),
      ms(first),
      ms(second),
    ]);
  }
  const errors = samples.filter((s) => s.error).length;
  rows.push(['all', samples.length, '', '', errors, '', '', '', '']);
  return { text: table(rows), errors, slower };
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
