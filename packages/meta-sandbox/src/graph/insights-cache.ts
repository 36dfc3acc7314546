import type { World } from '../world/world.ts';

const TTL_MS = 60_000;
const MAX_ENTRIES = 16;

interface Entry {
  revision: number;
  computedAt: number;
  rows: Record<string, unknown>[];
}

/** Per world, so a reset (a new world) drops everything; writes change the revision and miss the cache. */
const caches = new WeakMap<World, Map<string, Entry>>();

/**
 * Rows of a synchronous insights query, kept for a minute of sandbox time. A client paging through a big
 * answer asks the same query once per page; without this every page would recompute every row.
 */
export function cachedInsightsRows(
  world: World,
  key: string,
  now: number,
  compute: () => Record<string, unknown>[],
): Record<string, unknown>[] {
  let cache = caches.get(world);
  if (!cache) {
    cache = new Map();
    caches.set(world, cache);
  }
  const entry = cache.get(key);
  if (entry && entry.revision === world.revision && now >= entry.computedAt && now - entry.computedAt < TTL_MS) {
    return entry.rows;
  }
  const rows = compute();
  cache.delete(key);
  cache.set(key, { revision: world.revision, computedAt: now, rows });
  if (cache.size > MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return rows;
}
