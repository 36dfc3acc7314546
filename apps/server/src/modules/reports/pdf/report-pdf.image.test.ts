import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportDocument } from '../../../test/report-document-factory.ts';
import { renderReportPdf, writeReportPdf } from './report-pdf.ts';

/**
 * The report as a reader sees it: page 1 rasterised by poppler and read back by Tesseract's OCR. Thai comes back as
 * the words written only when its glyphs are there and its vowels and tone marks sit where they belong; the same
 * document in a Latin-only font reads as none of them. The tools are Debian packages that .ci/run installs; without
 * them this suite fails (a skipped check would prove nothing).
 */
const run = promisify(execFile);
const INSTALL = 'apt-get install -y poppler-utils tesseract-ocr tesseract-ocr-tha (.ci/run installs them)';

function missingTools(): string[] {
  const missing: string[] = [];
  if (spawnSync('pdftoppm', ['-v']).error) missing.push('pdftoppm (poppler-utils)');
  if (spawnSync('pdftotext', ['-v']).error) missing.push('pdftotext (poppler-utils)');
  const languages = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  if (languages.error) missing.push('tesseract (tesseract-ocr)');
  else if (!/^tha$/m.test(languages.stdout)) missing.push("tesseract's Thai data (tesseract-ocr-tha)");
  return missing;
}

let folder = '';

beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}: ${INSTALL}`);
  folder = await mkdtemp(join(tmpdir(), 'report-pdf-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** OCR of the top of page 1 (title block and the chart's heading) at 150 dpi, without whitespace. */
async function readTop(pdf: Buffer, name: string, languages = 'tha+eng'): Promise<string> {
  const file = join(folder, `${name}.pdf`);
  await writeFile(file, pdf);
  const image = join(folder, name);
  const page1Top = ['-f', '1', '-l', '1', '-r', '150', '-y', '0', '-H', '620', '-singlefile'];
  await run('pdftoppm', [...page1Top, '-png', file, image]);
  // One thread: on a busy two-core machine Tesseract's own threads only wait for each other.
  const { stdout } = await run('tesseract', [`${image}.png`, '-', '-l', languages], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  });
  // Tesseract writes SARA AM as NIKHAHIT + SARA AA; the words below are compared without spaces.
  return stdout.normalize('NFC').replaceAll('\u0e4d\u0e32', '\u0e33').replace(/\s+/g, '');
}

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
    const file = join(folder, 'long.pdf');
    await writeFile(file, await renderReportPdf(buildReportDocument({ language: 'th', campaigns: 30 })));
    await run('pdftotext', ['-f', '2', '-l', '2', '-layout', file, join(folder, 'long.txt')]);
    const page = await readFile(join(folder, 'long.txt'), 'utf8');
    expect(page).toContain('ร้านกาแฟนอร์ทวินด์ สาขากรุงเทพ');
    expect(page).toMatch(/บัญชี \/ แคมเปญ\s+ค่าใช้จ่าย\s+ผลลัพธ์\s+ต้นทุนต่อผลลัพธ์\s+ROAS/);
  });
});
