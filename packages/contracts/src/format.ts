/*
 * The one way calendar days, numbers and money are written in a reader's language (ADR 0059), shared by the web
 * (its `format.ts` adds instants in the reader's zone) and by the words of the activity log, which the server's
 * e-mails and webhooks write too. `Intl` does the work: Thai gets Thai month names and Buddhist-era years
 * ("16 – 22 พ.ย. 2569"), English "Nov 16 – 22, 2026". A calendar day ("2026-11-26") is a day, never moved by a zone.
 */

/** The `Intl` locale of a language: Thai is always written with the Buddhist calendar, whatever the region says. */
export function localeOf(language: string): string {
  return language === 'th' || language.startsWith('th-') ? 'th-TH-u-ca-buddhist' : language;
}

// Formats are kept once made: none of these depends on the reader's zone.
const numberFormats = new Map<string, Intl.NumberFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

/** The `Intl.NumberFormat` of a language and options, made once and kept. */
export function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(language), options);
    numberFormats.set(key, format);
  }
  return format;
}

function dayFormat(language: string, short: boolean): Intl.DateTimeFormat {
  const key = `${language}|${short}`;
  let format = dayFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = short
      ? { day: 'numeric', month: 'short', timeZone: 'UTC' }
      : { dateStyle: 'medium', timeZone: 'UTC' };
    format = new Intl.DateTimeFormat(localeOf(language), options);
    dayFormats.set(key, format);
  }
  return format;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as an instant at its UTC midnight, or null for anything that is not "YYYY-MM-DD" of a real day. */
function dayInstant(isoDate: string): Date | null {
  if (!CALENDAR_DAY.test(isoDate)) return null;
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== isoDate ? null : date;
}

/** A calendar day ("2026-11-26") as "Nov 26, 2026" · "26 พ.ย. 2569", or "Nov 26" with `short`; other text as it is. */
export function formatDay(isoDate: string, language: string, { short = false }: { short?: boolean } = {}): string {
  const date = dayInstant(isoDate);
  return date ? dayFormat(language, short).format(date) : isoDate;
}

/**
 * Two calendar days as one range: "Nov 16 – 22, 2026" · "16 – 22 พ.ย. 2569" (one day reads once); a value that is not
 * a day is written as it is.
 */
export function formatDayRange(startDate: string, endDate: string, language: string): string {
  const start = dayInstant(startDate);
  const end = dayInstant(endDate);
  if (!start || !end || start > end) return `${formatDay(startDate, language)} – ${formatDay(endDate, language)}`;
  return dayFormat(language, false).formatRange(start, end);
}

/** "1,234.5" · "1,234.5"; at most `digits` decimals. */
export function formatNumber(value: number, language: string, digits = 2): string {
  return numberFormat(language, { maximumFractionDigits: digits }).format(value);
}

/** An amount in its own currency: "$1,234.50" · "฿1,234.50"; a code Intl does not know is written after the figure. */
export function formatMoney(value: number, currency: string, language: string): string {
  try {
    return numberFormat(language, { style: 'currency', currency, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${formatNumber(value, language)} ${currency}`;
  }
}

/** A number of minutes with its unit: "1 minute", "15 minutes" · "15 นาที". */
export function formatMinutes(value: number, language: string): string {
  return numberFormat(language, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(value);
}

/**
 * The plural category of a count in a language ("one", "other", …) by the language's own rules: English has
 * "1 attempt" and "3 attempts", Thai one form for every count.
 */
export function pluralCategory(count: number, language: string): Intl.LDMLPluralRule {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(localeOf(language));
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}
