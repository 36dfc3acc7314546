import { afterEach, describe, expect, it } from 'vitest';
import {
  browserTimeZone,
  formatDate,
  formatDateTime,
  formatBytes,
  formatDay,
  formatDayRange,
  formatMoney,
  formatNumber,
  formatTime,
  localDay,
} from './format.ts';

// 05:04:03 UTC on 26 November 2026: 12:04 in Bangkok, 21:04 the day before in Los Angeles.
const INSTANT = '2026-11-26T05:04:03Z';

const realZone = process.env.TZ;

/** Puts the reader in a zone, as a browser there would be (Node applies a changed TZ at once). */
function readerIn(timeZone: string) {
  process.env.TZ = timeZone;
}

afterEach(() => {
  if (realZone === undefined) delete process.env.TZ;
  else process.env.TZ = realZone;
});

describe('format', () => {
  it('writes an instant in English and in Thai with the Buddhist-era year', () => {
    readerIn('UTC');
    expect(formatDateTime(INSTANT, 'en', { timeZone: 'UTC' })).toBe('Nov 26, 2026, 5:04 AM');
    expect(formatDateTime(INSTANT, 'th', { timeZone: 'UTC' })).toBe('26 พ.ย. 2569 05:04');
    expect(formatDateTime(INSTANT, 'en', { timeZone: 'UTC', seconds: true })).toBe('Nov 26, 2026, 5:04:03 AM');
    expect(formatDate(INSTANT, 'en', { timeZone: 'UTC' })).toBe('Nov 26, 2026');
    expect(formatDate(INSTANT, 'th', { timeZone: 'UTC' })).toBe('26 พ.ย. 2569');
  });

  it('keeps the Buddhist year for Thai whatever region the language comes with', () => {
    readerIn('UTC');
    expect(formatDate(INSTANT, 'th-TH', { timeZone: 'UTC' })).toBe('26 พ.ย. 2569');
    expect(formatDay('2026-01-01', 'th')).toBe('1 ม.ค. 2569');
  });

  it("writes an account's instant in the account's zone and names the zone", () => {
    readerIn('UTC');
    expect(browserTimeZone()).toBe('UTC');
    expect(formatDateTime(INSTANT, 'en', { timeZone: 'Asia/Bangkok' })).toBe('Nov 26, 2026, 12:04 PM GMT+7');
    expect(formatDateTime(INSTANT, 'th', { timeZone: 'Asia/Bangkok' })).toBe('26 พ.ย. 2569 12:04 GMT+7');
    expect(formatDateTime(INSTANT, 'th', { timeZone: 'Asia/Bangkok', seconds: true })).toBe(
      '26 พ.ย. 2569 12:04:03 GMT+7',
    );
    expect(formatDateTime(INSTANT, 'en', { timeZone: 'Asia/Bangkok', seconds: true })).toBe(
      'Nov 26, 2026, 12:04:03 PM GMT+7',
    );
    // The day before over there.
    expect(formatDate(INSTANT, 'en', { timeZone: 'America/Los_Angeles' })).toBe('Nov 25, 2026');
  });

  it("writes the reader's own zone without a name, and an unknown zone as the reader's", () => {
    readerIn('Asia/Bangkok');
    expect(formatDateTime(INSTANT, 'en', { timeZone: 'Asia/Bangkok' })).toBe('Nov 26, 2026, 12:04 PM');
    expect(formatDateTime(INSTANT, 'en', { timeZone: 'Not/AZone' })).toBe('Nov 26, 2026, 12:04 PM');
    expect(formatDateTime(INSTANT, 'en')).toBe('Nov 26, 2026, 12:04 PM');
    expect(formatTime(INSTANT, 'th')).toBe('12:04:03');
  });

  it('never moves a calendar day, in any zone', () => {
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      readerIn(zone);
      expect(formatDay('2026-11-26', 'en')).toBe('Nov 26, 2026');
      expect(formatDay('2026-11-26', 'en', { short: true })).toBe('Nov 26');
      expect(formatDay('2026-11-26', 'th', { short: true })).toBe('26 พ.ย.');
    }
  });

  it('writes numbers and money in the reader language, each amount in its own currency', () => {
    expect(formatNumber(1234.567, 'en')).toBe('1,234.57');
    expect(formatNumber(1234.567, 'th', 0)).toBe('1,235');
    expect(formatMoney(1234.5, 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney(1234.5, 'THB', 'th')).toBe('฿1,234.50');
    expect(formatMoney(1234.5, 'THB', 'en')).toBe('THB 1,234.50'.replace(' ', '\u00a0'));
    expect(formatMoney(5, 'XY', 'en')).toBe('5 XY');
  });

  it("gives the reader's local calendar day, not the UTC one", () => {
    readerIn('Asia/Bangkok');
    // 06:30 on 27 November in Bangkok, while UTC is still at 23:30 on the 26th.
    const earlyMorning = new Date('2026-11-26T23:30:00Z');
    expect(earlyMorning.toISOString().slice(0, 10)).toBe('2026-11-26');
    expect(localDay(0, earlyMorning)).toBe('2026-11-27');
    const lateEvening = new Date('2026-11-26T16:30:00Z');
    expect(localDay(0, lateEvening)).toBe('2026-11-26');
    expect(localDay(-29, lateEvening)).toBe('2026-10-28');
  });

  it('writes a range of days once, month and year shared where they can be', () => {
    readerIn('America/Los_Angeles');
    // Intl puts thin spaces around the dash: read as plain ones.
    const range = (start: string, end: string, language: string) =>
      formatDayRange(start, end, language).replace(/\s/g, ' ');
    expect(range('2026-11-16', '2026-11-22', 'en')).toBe('Nov 16 – 22, 2026');
    expect(range('2026-12-28', '2027-01-03', 'en')).toBe('Dec 28, 2026 – Jan 3, 2027');
    expect(range('2026-11-16', '2026-11-22', 'th')).toBe('16–22 พ.ย. 2569');
  });

  it('writes a file size in the largest unit that keeps it at 1 or more', () => {
    expect(formatBytes(812, 'en')).toBe('812 bytes');
    expect(formatBytes(48_213, 'en')).toBe('48 kB');
    expect(formatBytes(1_234_567, 'en')).toBe('1.2 MB');
    expect(formatBytes(812, 'th')).toBe('812 ไบต์');
  });
});
