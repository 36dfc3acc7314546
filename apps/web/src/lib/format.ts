import { formatDay, formatDayRange, formatMoney, formatNumber, localeOf, numberFormat } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';

/*
 * The one way the web writes dates, numbers and money (ADR 0059): `Intl` in the reader's language — the language of
 * the content being read (ADR 0025) — so Thai gets Thai month names and Buddhist-era years ("26 พ.ย. 2569"), English
 * gets "Nov 26, 2026". An instant that belongs to an ad account is written in the account's time zone, and says which
 * zone when it is not the reader's own. A calendar day ("2026-11-26") is a day, never moved by any zone. Days,
 * numbers and money are contracts' helpers, which the activity log's words (the server's e-mails too) use as well.
 */

export { formatDay, formatDayRange, formatMoney, formatNumber };

type Instant = string | number | Date;

export interface ZoneOptions {
  /** An IANA zone (an ad account's `timezone`); the reader's own zone when absent or not a zone. */
  timeZone?: string | null | undefined;
}

export interface DateTimeOptions extends ZoneOptions {
  /** Seconds too, where entries a second apart must read apart (the activity log). */
  seconds?: boolean;
}

// Date formats are made on each call, since the reader's zone is part of them (contracts keeps number formats).
function dateTimeFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(localeOf(language), options);
}

/** The browser's own IANA zone (UTC when it names none). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone to write in, or undefined for the reader's own (an unknown zone name falls back to it too). */
function otherZone(timeZone: string | null | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    const canonical = new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone;
    return canonical === browserTimeZone() ? undefined : canonical;
  } catch {
    return undefined;
  }
}

function toDate(value: Instant): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "Nov 26, 2026, 5:04 AM" · "26 พ.ย. 2569 05:04"; in another zone "…, 12:04 PM GMT+7". */
export function formatDateTime(value: Instant, language: string, options: DateTimeOptions = {}): string {
  const date = toDate(value);
  const timeZone = otherZone(options.timeZone);
  const styled = dateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: options.seconds ? 'medium' : 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
  if (!timeZone) return styled;
  // The styles cannot carry a zone name: it is asked for alone and written after the time.
  const zoneName = dateTimeFormat(language, { timeZone, timeZoneName: 'short' })
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value;
  return zoneName ? `${styled} ${zoneName}` : styled;
}

/** The day of an instant: "Nov 26, 2026" · "26 พ.ย. 2569". */
export function formatDate(value: Instant, language: string, options: ZoneOptions = {}): string {
  const timeZone = otherZone(options.timeZone);
  return dateTimeFormat(language, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(toDate(value));
}

/** An ISO weekday's short name (1 = Monday … 7 = Sunday): "Mon" · "จ.". */
export function formatWeekday(isoDay: number, language: string): string {
  // 5 January 2026 was a Monday; read at noon UTC so no zone moves it to another day.
  return dateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2026, 0, 4 + isoDay, 12)),
  );
}

/** The time of an instant: "5:04:03 AM" · "05:04:03". */
export function formatTime(value: Instant, language: string): string {
  return dateTimeFormat(language, { timeStyle: 'medium' }).format(toDate(value));
}

/** A percentage given in percent points (12.5 → "12.5%"); at most two decimals. */
export function formatPercent(value: number, language: string): string {
  return numberFormat(language, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
}

/** A change in percent points with its sign (52.2 → "+52%", −18 → "−18%"), whole percents. */
export function formatChange(value: number, language: string): string {
  return numberFormat(language, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(
    value / 100,
  );
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A file's size in the largest unit that keeps it at 1 or more (1,000 per step): "48 kB", "1.2 MB". */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return numberFormat(language, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}

/**
 * How long until a moment, in words: "in 5 hours" · "ใน 5 ชั่วโมง" (minutes under an hour, days from two days up);
 * a moment past reads as now.
 */
export function formatTimeUntil(value: Instant, language: string, now: Date = new Date()): string {
  const ms = Math.max(0, new Date(value).getTime() - now.getTime());
  const format = new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'auto' });
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return format.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  return hours < 48 ? format.format(hours, 'hour') : format.format(Math.round(hours / 24), 'day');
}

/** The reader's local calendar day as "YYYY-MM-DD", `days` from `from` (today): date inputs and file names. */
export function localDay(days = 0, from: Date = new Date()): string {
  const date = new Date(from);
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The formatters bound to the language of the content being read (a page's content language inside the shell). */
export function useFormat() {
  const { i18n } = useTranslation();
  return formatsFor(i18n.language);
}

/** The formatters of `useFormat` for one language, outside a component (one set shared by many rows). */
export function formatsFor(language: string) {
  return {
    language,
    dateTime: (value: Instant, options?: DateTimeOptions) => formatDateTime(value, language, options),
    date: (value: Instant, options?: ZoneOptions) => formatDate(value, language, options),
    time: (value: Instant) => formatTime(value, language),
    day: (isoDate: string, options?: { short?: boolean }) => formatDay(isoDate, language, options),
    dayRange: (startDate: string, endDate: string) => formatDayRange(startDate, endDate, language),
    bytes: (bytes: number) => formatBytes(bytes, language),
    number: (value: number, digits?: number) => formatNumber(value, language, digits),
    money: (value: number, currency: string) => formatMoney(value, currency, language),
    timeUntil: (value: Instant) => formatTimeUntil(value, language),
    weekday: (isoDay: number) => formatWeekday(isoDay, language),
  };
}
