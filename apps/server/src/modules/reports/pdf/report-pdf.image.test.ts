import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdfReader, run, type PdfReader } from '../../../test/pdf-image.ts';
import { buildReportDocument } from '../../../test/report-document-factory.ts';
import { renderReportPdf, writeReportPdf } from './report-pdf.ts';

/**
 * The report as a reader sees it: page 1 rasterised and read back by OCR (test/pdf-image.ts). The same document in a
 * Latin-only font reads as none of its Thai words.
 */
let reader: PdfReader;

beforeAll(async () => {
  reader = await openPdfReader('report-pdf-');
});

afterAll(async () => {
  await reader?.close();
});

const readTop = (pdf: Buffer, name: string, languages?: string) => reader.readTop(pdf, name, { languages });

/**
 * Report, the workspace, generated, spend, change: words with vowels above and below and stacked tone marks. (The
 * chart's 14 pt bold heading is left out: Tesseract at times takes its upper marks for a line of their own.)
 */
const THAI_WORDS = ['รายงานผลโฆษณารายเดือน', 'ร้านกาแฟนอร์ทวินด์', 'สร้างเมื่อ', 'ค่าใช้จ่ายเป็น', 'การเปลี่ยนแปลงเป็น'];

describe('the report PDF as an image', () => {
  it('reads back its Thai title, workspace and labels, marks and all', async () => {
    const text = await readTop(await renderReportPdf(buildReportDocument({ language: 'th' })), 'thai');
    for (const word of THAI_WORDS) expect(text).toContain(word);
  });

  it('reads back none of them when the same page is set in a Latin-only font', async () => {
    const doc = buildReportDocument({ language: 'th' });
    const text = await readTop(await writeReportPdf(doc, { regular: 'Helvetica', bold: 'Helvetica-Bold' }), 'latin');
    expect(text).toContain('AdPilot');
    for (const word of [...THAI_WORDS, 'รายงาน', 'ค่าใช้จ่าย']) expect(text).not.toContain(word);
  });

  it('reads back the English title and heading', async () => {
    const text = await readTop(await renderReportPdf(buildReportDocument({ language: 'en' })), 'english', 'eng');
    expect(text).toContain('Monthlyadvertisingreport');
    expect(text).toContain('Dailyspendandresults');
  });

  it('repeats the header row on the next page, and its Thai text is extractable', async () => {
    const file = join(reader.folder, 'long.pdf');
    await writeFile(file, await renderReportPdf(buildReportDocument({ language: 'th', campaigns: 30 })));
    await run('pdftotext', ['-f', '2', '-l', '2', '-layout', file, join(reader.folder, 'long.txt')]);
    const page = await readFile(join(reader.folder, 'long.txt'), 'utf8');
    expect(page).toContain('ร้านกาแฟนอร์ทวินด์ สาขากรุงเทพ');
    expect(page).toMatch(/บัญชี \/ แคมเปญ\s+ค่าใช้จ่าย\s+ผลลัพธ์\s+ต้นทุนต่อผลลัพธ์\s+ROAS/);
  });
});
