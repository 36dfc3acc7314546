/** Dates and numbers in the page's language: Thai pages get Thai month names and the Buddhist year. */
export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatDate(isoDate: string, language: string): string {
  // A local calendar date ("2026-11-22"): read at noon UTC so no time zone moves it to another day.
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' }).format(new Date(`${isoDate}T12:00:00Z`));
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);
}
