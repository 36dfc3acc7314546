import { z } from 'zod';

/** The earliest and latest calendar dates the API accepts: wide enough for any report, narrow enough for any database. */
export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '2099-12-31';

/**
 * A UUID as the API's ids are written (any version, either case): for an id that arrives outside a schema (a header,
 * a signed link, a stored metadata value) and must be one before it reaches a query. Schemas use `z.uuid()`.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const INPUT_MESSAGES = {
  controlCharacters: 'Must not contain control characters',
  dateFormat: 'Dates must be YYYY-MM-DD',
  dateRange: `Dates must be between ${DATE_MIN} and ${DATE_MAX}`,
} as const;

/**
 * C0 and C1 control characters and DEL (NUL among them, which a Postgres text column cannot hold), and unpaired
 * surrogates, which are not text at all: UTF-8 cannot encode them, so they would be silently replaced on the way in.
 * Multi-line text keeps tab, line feed and carriage return.
 */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/* eslint-disable no-control-regex -- matching control characters is the point of these patterns */
const CONTROL_FREE = {
  line: /^[^\u0000-\u001f\u007f-\u009f]*$/,
  multiline: /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/,
};
/* eslint-enable no-control-regex */

/**
 * DATE_MIN…DATE_MAX as the API document states them (a refinement is invisible there): the years 2000–2099 whole,
 * given a valid date. A second `.regex()` would say it too, but would push the date format out of the document.
 * text.test.ts holds the two in step.
 */
const CENTURY = /^20\d{2}-/;

/**
 * Every string a user sends starts here, so control characters and broken UTF-16 are a 400 with a field message
 * rather than a database error. `required` is the message for a missing or non-string value; `trim` trims before
 * the check (a name pasted with a trailing space is fine, a name with a NUL is not); `multiline` allows line breaks
 * and tabs (descriptions, messages).
 */
export function text(options: { required?: string; trim?: boolean; multiline?: boolean } = {}) {
  const base = z.string(options.required ? { error: options.required } : undefined);
  // A pattern rather than a refinement, so the API document states it; a refinement does not run after it fails.
  return (options.trim ? base.trim() : base)
    .regex(options.multiline ? CONTROL_FREE.multiline : CONTROL_FREE.line, INPUT_MESSAGES.controlCharacters)
    .refine((value) => !UNPAIRED_SURROGATE.test(value), INPUT_MESSAGES.controlCharacters);
}

/**
 * A real calendar date (YYYY-MM-DD, leap years included) within DATE_MIN…DATE_MAX: year 0000 or 9999 is a typo
 * or a probe, and date arithmetic on it leaves the four-digit years the rest of the code compares as strings.
 */
export function calendarDate() {
  return z.iso
    .date({ error: INPUT_MESSAGES.dateFormat })
    .refine((value) => value >= DATE_MIN && value <= DATE_MAX, INPUT_MESSAGES.dateRange)
    .meta({ allOf: [{ pattern: CENTURY.source }] });
}
