import type { ReportLanguage } from '@adpilot/contracts';

/** How the report writes numbers, money and dates in its language; every one through `Intl`. */
export interface ReportFormat {
  money(amount: number, currency: string): string;
  /** Money without its currency sign, in the currency's minor digits, for a table whose heading names the currency. */
  amount(amount: number, currency: string): string;
  /** Short money for a chart's axis (฿12K). */
  moneyShort(amount: number, currency: string): string;
  count(value: number): string;
  ratio(value: number | null): string;
  /** The change from `previous` to `current` in %, signed; a dash where there is nothing to compare with. */
  change(current: number | null, previous: number | null): string;
  /** A period of local calendar dates (YYYY-MM-DD), start and end included. */
  period(start: string, end: string): string;
  /** A day of the chart's axis: its day of the month. */
  dayOfMonth(date: string): string;
  /** An instant, in the given time zone. */
  instant(iso: string, timeZone: string): string;
}

const DASH = '—';

/**
 * Thin and narrow spaces (en-US puts them around a range's dash and before AM) written as plain spaces: the report's
 * font has no glyph for them.
 */
function plainSpaces(text: string): string {
  return text.replace(/[\u2009\u202f]/g, ' ');
}

/** A local calendar date as the UTC midnight of that date, so formatting it in UTC shows that same date. */
function calendarDate(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

export function reportFormat(language: ReportLanguage): ReportFormat {
  const locale = language === 'th' ? 'th-TH' : 'en-US';
  const counts = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const ratios = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percents = new Intl.NumberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const days = new Intl.DateTimeFormat(locale, { day: 'numeric', timeZone: 'UTC' });
  const moneys = new Map<string, Intl.NumberFormat>();
  const shortMoneys = new Map<string, Intl.NumberFormat>();
  const amounts = new Map<string, Intl.NumberFormat>();
  const cached = (cache: Map<string, Intl.NumberFormat>, currency: string, options: Intl.NumberFormatOptions) => {
    let format = cache.get(currency);
    if (!format)
      cache.set(currency, (format = new Intl.NumberFormat(locale, { style: 'currency', currency, ...options })));
    return format;
  };
  return {
    money: (amount, currency) => cached(moneys, currency, {}).format(amount),
    amount: (amount, currency) => {
      let format = amounts.get(currency);
      if (!format) {
        const digits = cached(moneys, currency, {}).resolvedOptions().maximumFractionDigits;
        format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
        amounts.set(currency, format);
      }
      return format.format(amount);
    },
    moneyShort: (amount, currency) =>
      cached(shortMoneys, currency, { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(
        amount,
      ),
    count: (value) => counts.format(value),
    ratio: (value) => (value === null ? DASH : ratios.format(value)),
    change: (current, previous) => {
      if (current === null || previous === null || previous === 0) return DASH;
      return percents.format((current - previous) / Math.abs(previous));
    },
    period: (start, end) => plainSpaces(dates.formatRange(calendarDate(start), calendarDate(end))),
    dayOfMonth: (date) => days.format(calendarDate(date)),
    instant: (iso, timeZone) =>
      plainSpaces(
        new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(new Date(iso)),
      ),
  };
}
