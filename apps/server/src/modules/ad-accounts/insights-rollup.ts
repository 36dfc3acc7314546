import { addTotals } from '@adpilot/contracts';
import type { InsightInput } from './ad-accounts.repository.ts';

/**
 * Adds ad-level days up to a parent level (ad set or campaign), day by day. Reach is summed: an upper bound,
 * since Meta does not add reach up across ads. Rows whose ad has no known parent are left out.
 */
export function rollUp(
  rows: readonly InsightInput[],
  parentOf: (adId: string) => string | null | undefined,
): InsightInput[] {
  const totals = new Map<string, InsightInput>();
  for (const row of rows) {
    const parent = parentOf(row.entityExternalId);
    if (!parent) continue;
    const key = `${parent}|${row.date}`;
    const total = totals.get(key);
    if (!total) {
      totals.set(key, { ...row, entityExternalId: parent });
      continue;
    }
    addTotals(total, row);
  }
  return [...totals.values()];
}
