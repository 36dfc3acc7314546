import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A PDF as a reader sees it: a page rasterised by poppler and read back by Tesseract's OCR. Thai comes back as the
 * words written only when its glyphs are there and its vowels and tone marks sit where they belong. The tools are
 * Debian packages that .ci/run installs; without them a suite using this fails (a skipped check would prove nothing).
 */
export const run = promisify(execFile);
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

export interface PdfReader {
  /** Where the PDFs and their images are written (removed by `close`). */
  folder: string;
  /**
   * OCR of the top of page 1 (`height` pixels at `dpi`, 150 unless said), without whitespace. Tesseract writes SARA AM as NIKHAHIT +
   * SARA AA; it is put back so words compare as written.
   */
  readTop(pdf: Buffer, name: string, options?: { languages?: string; height?: number; dpi?: number }): Promise<string>;
  close(): Promise<void>;
}

/** Checks the tools are there (throws naming what to install) and opens a folder to work in. */
export async function openPdfReader(prefix: string): Promise<PdfReader> {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}: ${INSTALL}`);
  const folder = await mkdtemp(join(tmpdir(), prefix));
  return {
    folder,
    async readTop(pdf, name, { languages = 'tha+eng', height = 620, dpi = 150 } = {}) {
      const file = join(folder, `${name}.pdf`);
      await writeFile(file, pdf);
      const image = join(folder, name);
      const page1Top = ['-f', '1', '-l', '1', '-r', String(dpi), '-y', '0', '-H', String(height), '-singlefile'];
      await run('pdftoppm', [...page1Top, '-png', file, image]);
      // One thread: on a busy two-core machine Tesseract's own threads only wait for each other.
      const { stdout } = await run('tesseract', [`${image}.png`, '-', '-l', languages], {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      });
      return stdout.normalize('NFC').replaceAll('\u0e4d\u0e32', '\u0e33').replace(/\s+/g, '');
    },
    close: () => rm(folder, { recursive: true, force: true }),
  };
}
