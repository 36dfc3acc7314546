import PDFDocument from 'pdfkit';
import type { ReportDocument } from '../report-document.ts';
import { dailyChart } from './report-pdf-chart.ts';
import { SARABUN, type PdfFonts } from '../../../lib/pdf-fonts.ts';
import { reportFormat } from './report-pdf-format.ts';
import {
  BOLD,
  BOTTOM,
  COLOURS,
  LEFT,
  PAGE,
  REGULAR,
  RIGHT,
  TOP,
  WIDTH,
  ensureSpace,
  heading,
  line,
  type ReportCanvas,
} from './report-pdf-layout.ts';
import { accountTable } from './report-pdf-table.ts';
import { REPORT_PDF_WORDS } from './report-pdf-words.ts';

const BAND_HEIGHT = 124;

/** The time zone the report's instants are shown in: its first account's, as the schedule's period is. */
function reportTimeZone(doc: ReportDocument): string {
  return doc.accounts[0]?.timeZone ?? 'UTC';
}

function titleBlock(canvas: ReportCanvas, doc: ReportDocument): void {
  const { pdf, words, format } = canvas;
  pdf.rect(0, 0, PAGE.width, BAND_HEIGHT).fill(COLOURS.band);
  line(pdf, 'AdPilot', LEFT, 34, { size: 10, bold: true, colour: COLOURS.bandMuted });
  line(pdf, words.title[doc.frequency], LEFT, 52, { size: 22, bold: true, colour: COLOURS.bandText, width: WIDTH });
  line(pdf, doc.workspaceName, LEFT, 88, { size: 14, colour: COLOURS.bandText, width: WIDTH });

  const facts: [string, string][] = [
    [words.period, format.period(doc.period.start, doc.period.end)],
    [words.comparedWith, format.period(doc.previous.start, doc.previous.end)],
    [words.generatedAt, format.instant(doc.generatedAt, reportTimeZone(doc))],
  ];
  const column = WIDTH / facts.length;
  const top = BAND_HEIGHT + 18;
  facts.forEach(([label, text], index) => {
    const x = LEFT + index * column;
    line(pdf, label, x, top, { size: 8, colour: COLOURS.muted, width: column - 12 });
    line(pdf, text, x, top + 13, { size: 10.5, bold: true, width: column - 12 });
  });
  pdf
    .moveTo(LEFT, top + 38)
    .lineTo(RIGHT, top + 38)
    .lineWidth(0.5)
    .stroke(COLOURS.rule);
  line(pdf, words.changeNote, LEFT, top + 46, { size: 8, colour: COLOURS.muted, width: WIDTH });
  pdf.y = top + 76;
}

function rulesSection(canvas: ReportCanvas, doc: ReportDocument): void {
  const { pdf, words, format } = canvas;
  const { rules } = doc;
  const tiles: [string, number][] = [
    [words.actionsApplied, rules.actionsApplied],
    [words.paused, rules.paused],
    [words.budgetChanges, rules.budgetChanges],
    [words.proposalsWaiting, rules.proposalsWaiting],
  ];
  const moneyRows = rules.perCurrency.length;
  heading(canvas, words.rulesTitle, 64 + moneyRows * 40 + 30);
  const gap = 10;
  const tileWidth = (WIDTH - gap * (tiles.length - 1)) / tiles.length;
  const top = pdf.y;
  tiles.forEach(([label, count], index) => {
    const x = LEFT + index * (tileWidth + gap);
    pdf.roundedRect(x, top, tileWidth, 54, 4).fill(COLOURS.headerFill);
    line(pdf, format.count(count), x + 10, top + 8, { size: 18, bold: true, width: tileWidth - 20 });
    line(pdf, label, x + 10, top + 34, { size: 8, colour: COLOURS.muted, width: tileWidth - 20 });
  });
  pdf.y = top + 54 + 14;

  const amounts = [words.spendAvoided, words.budgetRaised, words.budgetLowered];
  const column = WIDTH / amounts.length;
  for (const money of rules.perCurrency) {
    ensureSpace(pdf, 40);
    const rowTop = pdf.y;
    [money.spendAvoided, money.budgetRaised, money.budgetLowered].forEach((amount, index) => {
      const x = LEFT + index * column;
      line(pdf, amounts[index]!, x, rowTop, { size: 8, colour: COLOURS.muted, width: column - 12 });
      line(pdf, format.money(amount, money.currency), x, rowTop + 12, { size: 12, bold: true, width: column - 12 });
    });
    pdf.y = rowTop + 40;
  }
  ensureSpace(pdf, 20);
  line(pdf, words.estimateNote, LEFT, pdf.y, { size: 7.5, colour: COLOURS.muted, width: WIDTH });
  pdf.y += 20;
}

/** Every page's foot: the workspace and "page n of N", written once the page count is known. */
function footers(canvas: ReportCanvas, doc: ReportDocument): void {
  const { pdf, words, format } = canvas;
  const { start, count } = pdf.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    pdf.switchToPage(index);
    const y = BOTTOM + 24;
    pdf
      .moveTo(LEFT, y - 6)
      .lineTo(RIGHT, y - 6)
      .lineWidth(0.5)
      .stroke(COLOURS.rule);
    line(pdf, `AdPilot · ${doc.workspaceName}`, LEFT, y, { size: 7.5, colour: COLOURS.muted, width: WIDTH / 2 });
    const page = words.page(format.count(index + 1), format.count(count));
    line(pdf, page, LEFT + WIDTH / 2, y, { size: 7.5, colour: COLOURS.muted, width: WIDTH / 2, align: 'right' });
  }
}

/**
 * Writes the report with the given fonts; `renderReportPdf` is this with the shipped Thai-and-Latin font. The PDF
 * has a fixed creation date (the report's) so the same document gives the same file.
 */
export async function writeReportPdf(doc: ReportDocument, fonts: PdfFonts): Promise<Buffer> {
  const words = REPORT_PDF_WORDS[doc.language];
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: TOP, bottom: 0, left: LEFT, right: PAGE.width - RIGHT },
    bufferPages: true,
    lang: doc.language === 'th' ? 'th-TH' : 'en-US',
    info: {
      Title: `${words.title[doc.frequency]} · ${doc.workspaceName}`,
      Author: 'AdPilot',
      Creator: 'AdPilot',
      CreationDate: new Date(doc.generatedAt),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont(REGULAR, fonts.regular);
  pdf.registerFont(BOLD, fonts.bold);
  const canvas: ReportCanvas = { pdf, words, format: reportFormat(doc.language) };

  titleBlock(canvas, doc);
  for (const { currency, days } of doc.chart) dailyChart(canvas, currency, days);
  if (doc.accounts.length === 0) {
    heading(canvas, words.accounts, 20);
    line(pdf, words.noAccounts, LEFT, pdf.y, { size: 9, colour: COLOURS.muted, width: WIDTH });
    pdf.y += 28;
  }
  for (const account of doc.accounts) accountTable(canvas, account);
  rulesSection(canvas, doc);
  footers(canvas, doc);
  pdf.end();
  return done;
}

/** The scheduled report as a PDF (A4), in the document's language. */
export function renderReportPdf(doc: ReportDocument): Promise<Buffer> {
  return writeReportPdf(doc, SARABUN);
}
