import type { ReportFormat } from './report-pdf-format.ts';
import type { ReportPdfWords } from './report-pdf-words.ts';

/** A4 in points, and the frame every page's content keeps inside (the footer sits below `BOTTOM`). */
export const PAGE = { width: 595.28, height: 841.89 } as const;
export const LEFT = 44;
export const RIGHT = PAGE.width - 44;
export const WIDTH = RIGHT - LEFT;
export const TOP = 48;
export const BOTTOM = PAGE.height - 60;

export const COLOURS = {
  ink: '#1f2937',
  muted: '#6b7280',
  rule: '#e5e7eb',
  band: '#1e3a5f',
  bandText: '#ffffff',
  bandMuted: '#c7d6e8',
  headerFill: '#f3f4f6',
  totalFill: '#eef2f9',
  spend: '#3b6fb6',
  results: '#e08a1e',
  ruleDay: '#ede4fb',
  ruleMark: '#7446c4',
  better: '#15803d',
  worse: '#b91c1c',
} as const;

export const REGULAR = 'report-regular';
export const BOLD = 'report-bold';

/** What every part of the report draws with. */
export interface ReportCanvas {
  pdf: PDFKit.PDFDocument;
  words: ReportPdfWords;
  format: ReportFormat;
}

export interface TextStyle {
  size: number;
  bold?: boolean;
  colour?: string;
}

function use(pdf: PDFKit.PDFDocument, style: TextStyle): PDFKit.PDFDocument {
  return pdf
    .font(style.bold ? BOLD : REGULAR)
    .fontSize(style.size)
    .fillColor(style.colour ?? COLOURS.ink);
}

export function textWidth(pdf: PDFKit.PDFDocument, text: string, style: TextStyle): number {
  return use(pdf, style).widthOfString(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The text cut to `width` with an ellipsis; cut between graphemes, so a Thai consonant keeps its vowel and tone
 * marks.
 */
export function fitText(pdf: PDFKit.PDFDocument, text: string, width: number, style: TextStyle): string {
  if (textWidth(pdf, text, style) <= width) return text;
  const parts = [...graphemes.segment(text)].map((part) => part.segment);
  let low = 0;
  let high = parts.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (textWidth(pdf, `${parts.slice(0, middle).join('').trimEnd()}…`, style) <= width) low = middle;
    else high = middle - 1;
  }
  return `${parts.slice(0, low).join('').trimEnd()}…`;
}

/**
 * One line of text at (x, y) (y is the top of the line), never wrapped and never starting a page by itself;
 * `align: 'right'` ends it at x + width, cut to fit.
 */
export function line(
  pdf: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  style: TextStyle & { width?: number; align?: 'left' | 'right' | 'center' },
): void {
  const shown = style.width === undefined ? text : fitText(pdf, text, style.width, style);
  const width = textWidth(pdf, shown, style);
  let left = x;
  if (style.width !== undefined && style.align === 'right') left = x + style.width - width;
  if (style.width !== undefined && style.align === 'center') left = x + (style.width - width) / 2;
  use(pdf, style).text(shown, left, y, { lineBreak: false });
}

/** A new page when fewer than `height` points are left on this one; the cursor is `pdf.y`. */
export function ensureSpace(pdf: PDFKit.PDFDocument, height: number): boolean {
  if (pdf.y + height <= BOTTOM) return false;
  pdf.addPage();
  pdf.y = TOP;
  return true;
}

/** A section's heading, kept on a page with at least `keep` points of what follows it. */
export function heading(canvas: ReportCanvas, text: string, keep: number): void {
  const { pdf } = canvas;
  ensureSpace(pdf, 30 + keep);
  line(pdf, text, LEFT, pdf.y, { size: 14, bold: true, width: WIDTH });
  pdf.y += 24;
}
