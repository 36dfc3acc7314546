import { statSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { buildReportDocument } from '../../../test/report-document-factory.ts';
import { SARABUN } from '../../../lib/pdf-fonts.ts';
import { reportFormat } from './report-pdf-format.ts';
import { BOLD, fitText, REGULAR } from './report-pdf-layout.ts';
import { renderReportPdf } from './report-pdf.ts';
import { niceMax } from './report-pdf-chart.ts';

function pageCount(pdf: Buffer): number {
  const count = /\/Type \/Pages\n\/Count (\d+)/.exec(pdf.toString('latin1'));
  if (!count) throw new Error('no page tree in the PDF');
  return Number(count[1]);
}

/** The embedded font programs: each font descriptor's name and its FontFile2 stream, inflated. */
function embeddedFonts(pdf: Buffer): { name: string; bytes: number }[] {
  const text = pdf.toString('latin1');
  const descriptors = [...text.matchAll(/\/FontName \/([A-Z]{6}\+[\w-]+)[\s\S]*?\/FontFile2 (\d+) 0 R/g)];
  return descriptors.map(([, name, ref]) => {
    const object = text.indexOf(`\n${ref} 0 obj\n`);
    const length = Number(/\/Length (\d+)/.exec(text.slice(object, object + 200))![1]);
    const start = text.indexOf('stream\n', object) + 'stream\n'.length;
    return { name: name!, bytes: inflateSync(pdf.subarray(start, start + length)).length };
  });
}

describe('the report PDF', () => {
  it('is a PDF file, from its header to its end-of-file marker', async () => {
    const pdf = await renderReportPdf(buildReportDocument({ language: 'th' }));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it('embeds only the glyphs it uses of the shipped font, regular and semibold', async () => {
    const pdf = await renderReportPdf(buildReportDocument({ language: 'th' }));
    const fonts = embeddedFonts(pdf);
    expect(fonts.map((font) => font.name.slice(7)).sort()).toEqual(['Sarabun-Regular', 'Sarabun-SemiBold']);
    // A subset: a small part of the 83 KB font file.
    const whole = statSync(SARABUN.regular as string).size;
    for (const font of fonts) expect(font.bytes).toBeLessThan(whole / 4);
  });

  it('breaks a long table over pages: one more page per page of rows', async () => {
    // A table page holds (781.89 - 48 - 16 - 22) / 30 = 23 campaign rows under its repeated header.
    const pages = async (campaigns: number) => pageCount(await renderReportPdf(buildReportDocument({ campaigns })));
    expect(await pages(2)).toBe(1);
    const long = await pages(60);
    expect(long).toBe(4);
    expect(await pages(60 + 23)).toBe(long + 1);
  });

  it('writes an account without campaigns, a chart without days and a report without accounts', async () => {
    const empty = buildReportDocument({ campaigns: 0, chart: [{ currency: 'THB', days: [] }] });
    expect(pageCount(await renderReportPdf(empty))).toBe(1);
    expect(pageCount(await renderReportPdf({ ...empty, accounts: [], chart: [] }))).toBe(1);
  });
});

describe('the report formats', () => {
  it('writes money in the account currency and dates in the language, Thai in the Buddhist era', () => {
    const th = reportFormat('th');
    const en = reportFormat('en');
    expect(th.money(12_500, 'THB')).toBe('฿12,500.00');
    expect(en.money(12_500, 'USD')).toBe('$12,500.00');
    expect(en.amount(12_500, 'JPY')).toBe('12,500');
    expect(th.period('2026-03-01', '2026-03-31')).toBe('1–31 มี.ค. 2569');
    expect(en.period('2026-02-23', '2026-03-01')).toBe('Feb 23 – Mar 1, 2026');
    expect(en.instant('2026-04-01T01:00:00Z', 'Asia/Bangkok')).toBe('April 1, 2026 at 8:00 AM');
  });

  it('writes a change in % signed, and a dash where there is nothing to compare with', () => {
    const en = reportFormat('en');
    expect(en.change(110, 100)).toBe('+10%');
    expect(en.change(75, 100)).toBe('-25%');
    expect(en.change(100, 100)).toBe('0%');
    expect(en.change(5, 0)).toBe('—');
    expect(en.change(null, 2)).toBe('—');
  });

  it('rounds a chart axis up to a round maximum', () => {
    expect([0, 7, 18_900, 96, 0.3].map(niceMax)).toEqual([4, 8, 20_000, 100, 0.4]);
  });

  it('cuts a long name between graphemes, never between a Thai consonant and its marks', () => {
    const pdf = new PDFDocument({ size: 'A4' });
    pdf.registerFont(REGULAR, SARABUN.regular);
    pdf.registerFont(BOLD, SARABUN.bold);
    const name = 'ที่นี่ผู้ใหญ่น้ำปั้นฟื้น'.repeat(4);
    const cut = fitText(pdf, name, 60, { size: 9 });
    expect(cut.endsWith('…')).toBe(true);
    expect(pdf.widthOfString(cut)).toBeLessThanOrEqual(60);
    const kept = cut.slice(0, -1);
    expect(name.startsWith(kept)).toBe(true);
    // The next character is not a combining mark left without its consonant.
    expect(name.slice(kept.length)).toMatch(/^[^\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]/);
    expect(fitText(pdf, 'short', 60, { size: 9 })).toBe('short');
    pdf.end();
  });
});
