import type { Report } from '@adpilot/contracts';
import { xlsx, type XlsxCell } from './xlsx.ts';

/** The Reports page's table as rows: a header, then one row per account or campaign, in the report's order. */
export function reportTable(report: Report): XlsxCell[][] {
  const campaign = report.level === 'campaign';
  const header = [
    campaign ? 'Campaign' : 'Ad account',
    ...(campaign ? ['Ad account'] : []),
    'Currency',
    'Spend',
    'Conversions',
    'Conversion value',
    'CPA',
    'ROAS',
  ];
  const rows = report.series.map((series) => [
    series.name,
    ...(campaign ? [series.adAccountName] : []),
    series.currency,
    series.totals.spend,
    series.totals.conversions,
    series.totals.conversionValue,
    series.totals.cpa,
    series.totals.roas,
  ]);
  return [header, ...rows];
}

/**
 * One CSV field: quoted when it holds a separator, a quote or a line break; a text starting with `= + - @` (or
 * tab/CR) is prefixed with `'` so a spreadsheet never runs a name as a formula. Numbers are written as they are.
 */
function csvField(value: XlsxCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The table as CSV (UTF-8 with a byte-order mark, so a spreadsheet reads Thai names right). */
export function reportCsv(report: Report): Buffer {
  const text = reportTable(report)
    .map((row) => `${row.map(csvField).join(',')}\r\n`)
    .join('');
  return Buffer.from(`\uFEFF${text}`, 'utf8');
}

/** The table as an XLSX workbook of one sheet, named after the range. */
export function reportXlsx(report: Report): Buffer {
  return xlsx(`${report.from} to ${report.to}`, reportTable(report));
}
