/** Money in the series' own currency and the page's language (Thai pages get Thai digits' grouping, ฿ …). */
export function formatMoney(value: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value)} ${currency}`;
  }
}

export function formatNumber(value: number, language: string, digits = 2): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
}

export function formatDay(isoDate: string, language: string): string {
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' }).format(new Date(`${isoDate}T12:00:00Z`));
}

/** The browser's local calendar date, `days` from today. */
export function localDate(days = 0): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
