import { fileURLToPath } from 'node:url';

/**
 * The fonts a PDF (the report, the receipt) is written in: a file path or the font's bytes (TrueType or OpenType), or one of PDF's 14
 * standard font names (Latin only; the tests use one to show what Thai looks like without a Thai font).
 */
export interface PdfFonts {
  regular: string | Buffer;
  bold: string | Buffer;
}

/**
 * Sarabun (SIL Open Font License 1.1, `apps/server/assets/fonts/`): one face covers Thai and Latin, so a line that
 * mixes a Thai heading with a campaign's English name needs no font switching, and its OpenType tables place Thai
 * marks. Found next to this file's source, which is also where the bundled server looks (scripts/build-server.mjs).
 */
const FONT_DIR = new URL('../../assets/fonts/', import.meta.url);

export const SARABUN: PdfFonts = {
  regular: fileURLToPath(new URL('Sarabun-Regular.ttf', FONT_DIR)),
  bold: fileURLToPath(new URL('Sarabun-SemiBold.ttf', FONT_DIR)),
};
