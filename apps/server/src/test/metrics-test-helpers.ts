import type { FastifyInstance } from 'fastify';

/** GET /api/metrics with these headers. */
export function scrapeOf(app: FastifyInstance, headers: Record<string, string>) {
  return app.inject({ method: 'GET', url: '/api/metrics', headers });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (its comment lines left out). */
function samples(body: string): Sample[] {
  const found: Sample[] = [];
  for (const line of body.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    found.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return found;
}

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);

/** The value of the metric's sample whose labels are exactly `labels`, or undefined when there is none. */
export function sample(body: string, name: string, labels: Record<string, string>): number | undefined {
  return samples(body).find((entry) => entry.name === name && sameLabels(entry.labels, labels))?.value;
}

/** The sum of the metric's samples whose labels include `labels` (0 when there is none). */
export function total(body: string, name: string, labels: Record<string, string>): number {
  return samples(body)
    .filter(
      (entry) => entry.name === name && Object.entries(labels).every(([key, value]) => entry.labels[key] === value),
    )
    .reduce((sum, entry) => sum + entry.value, 0);
}

/** Scrapes until the sample reaches `value` (a job's outcome lands when its worker gets to it), for up to 20 s. */
export async function waitForSample(
  scrape: () => Promise<string>,
  name: string,
  labels: Record<string, string>,
  value: number,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen: number | undefined;
  while (Date.now() < deadline) {
    seen = sample(await scrape(), name, labels);
    if (seen !== undefined && seen >= value) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name}${JSON.stringify(labels)} stayed at ${seen ?? 'nothing'}, not ${value}`);
}
