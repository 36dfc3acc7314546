import { formatDay } from '../../../lib/format.ts';

// The Rules pages write through the app's one formatter (ADR 0059); these names stay so the pages' imports do.
export { formatDateTime, formatNumber } from '../../../lib/format.ts';

/** A calendar day of a backtest ("2026-11-22") as "Nov 22" · "22 พ.ย.". */
export function formatDate(isoDate: string, language: string): string {
  return formatDay(isoDate, language, { short: true });
}
