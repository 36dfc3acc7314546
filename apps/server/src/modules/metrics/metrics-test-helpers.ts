import type { FastifyInstance } from 'fastify';

/** GET /api/metrics with these headers. */
export function scrapeOf(app: FastifyInstance, headers: Record<string, string>) {
  return app.inject({ method: 'GET', url: '/api/metrics', headers });
}

/**
 * The value of one sample of a Prometheus text exposition: the metric's line whose labels are exactly `labels`
 * (in any order), or undefined when there is none.
 */
export function sample(body: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of body.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=[a-zA-Z_]\w*=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return undefined;
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
