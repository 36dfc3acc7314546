import type { ReportAccountSection, ReportFigures, ReportRow } from '../report-document.ts';
import {
  BOTTOM,
  COLOURS,
  LEFT,
  WIDTH,
  ensureSpace,
  heading,
  line,
  textWidth,
  type ReportCanvas,
  type TextStyle,
} from './report-pdf-layout.ts';

const NAME_WIDTH = 135;
const METRIC_WIDTH = (WIDTH - NAME_WIDTH) / 4;
const HEADER_HEIGHT = 22;
const ROW_HEIGHT = 30;
const PAD = 6;
const GAP = 5;

type Metric = keyof ReportFigures;
const METRICS: Metric[] = ['spend', 'results', 'cpa', 'roas'];
/** Which way is good news: more results and ROAS, a lower CPA; spend is neither. */
const BETTER: Record<Metric, 1 | -1 | 0> = { spend: 0, results: 1, cpa: -1, roas: 1 };

function metricX(index: number): number {
  return LEFT + NAME_WIDTH + index * METRIC_WIDTH;
}

function header(canvas: ReportCanvas): void {
  const { pdf, words } = canvas;
  const top = pdf.y;
  pdf.rect(LEFT, top, WIDTH, HEADER_HEIGHT).fill(COLOURS.headerFill);
  const style: TextStyle = { size: 8.5, bold: true, colour: COLOURS.muted };
  line(pdf, words.name, LEFT + PAD, top + 5, { ...style, width: NAME_WIDTH - 2 * PAD });
  METRICS.forEach((metric, index) =>
    line(pdf, words[metric], metricX(index) + PAD, top + 5, {
      ...style,
      width: METRIC_WIDTH - 2 * PAD,
      align: 'right',
    }),
  );
  pdf.y = top + HEADER_HEIGHT;
}

function value(canvas: ReportCanvas, metric: Metric, figures: ReportFigures, currency: string): string {
  const { format } = canvas;
  const amount = figures[metric];
  if (metric === 'spend') return format.amount(figures.spend, currency);
  if (metric === 'results') return format.count(figures.results);
  if (metric === 'cpa') return amount === null ? format.ratio(null) : format.amount(amount, currency);
  return format.ratio(amount);
}

function changeColour(metric: Metric, current: number | null, previous: number | null): string {
  if (current === null || previous === null || previous === 0 || current === previous || BETTER[metric] === 0) {
    return COLOURS.muted;
  }
  return Math.sign(current - previous) === BETTER[metric] ? COLOURS.better : COLOURS.worse;
}

function row(canvas: ReportCanvas, entry: ReportRow, currency: string, total: boolean): void {
  const { pdf, format, words } = canvas;
  const top = pdf.y;
  if (total) pdf.rect(LEFT, top, WIDTH, ROW_HEIGHT).fill(COLOURS.totalFill);
  const nameIndent = total ? PAD : PAD + 8;
  line(pdf, entry.name, LEFT + nameIndent, top + 8, { size: 9, bold: total, width: NAME_WIDTH - nameIndent - PAD });
  METRICS.forEach((metric, index) => {
    const x = metricX(index) + PAD;
    const width = METRIC_WIDTH - 2 * PAD;
    const current = entry.current[metric];
    const previous = entry.previous[metric];
    const shown = value(canvas, metric, entry.current, currency);
    const before = value(canvas, metric, entry.previous, currency);
    const change = format.change(current, previous);
    const valueStyle: TextStyle = { size: 9.5, bold: true };
    const changeStyle: TextStyle = { size: 7.5, bold: true, colour: changeColour(metric, current, previous) };
    const previousStyle: TextStyle = { size: 7, colour: COLOURS.muted };
    const valueWidth = textWidth(pdf, shown, valueStyle);
    const changeWidth = textWidth(pdf, change, changeStyle);
    line(pdf, shown, x, top + 3, { ...valueStyle, width, align: 'right' });
    // The change sits just left of the figure it describes; where both do not fit, it goes below, beside the
    // previous figure, which then loses its label before a digit would be cut.
    if (valueWidth + changeWidth + GAP <= width) {
      line(pdf, change, x + width - valueWidth - GAP - changeWidth, top + 5, changeStyle);
      line(pdf, `${words.previous} ${before}`, x, top + 17, { ...previousStyle, width, align: 'right' });
    } else {
      const labelled = `${words.previous} ${before}`;
      const fits = textWidth(pdf, labelled, previousStyle) + changeWidth + GAP <= width;
      const shownBefore = fits ? labelled : before;
      const beforeWidth = textWidth(pdf, shownBefore, previousStyle);
      line(pdf, shownBefore, x, top + 17, { ...previousStyle, width, align: 'right' });
      line(pdf, change, x + width - beforeWidth - GAP - changeWidth, top + 16.5, changeStyle);
    }
  });
  pdf
    .moveTo(LEFT, top + ROW_HEIGHT)
    .lineTo(LEFT + WIDTH, top + ROW_HEIGHT)
    .lineWidth(0.5)
    .stroke(COLOURS.rule);
  pdf.y = top + ROW_HEIGHT;
}

/**
 * An account's table: its totals, then each campaign; current figures with, below them, the change in % and the
 * previous period's figure. Rows that do not fit go on the next page under the header row again.
 */
export function accountTable(canvas: ReportCanvas, account: ReportAccountSection): void {
  const { pdf, words } = canvas;
  heading(canvas, account.name, 18 + HEADER_HEIGHT + 2 * ROW_HEIGHT);
  line(pdf, words.currencyAndZone(account.currency, account.timeZone), LEFT, pdf.y - 3, {
    size: 8.5,
    colour: COLOURS.muted,
    width: WIDTH,
  });
  pdf.y += 14;
  header(canvas);
  row(canvas, { ...account.totals, name: words.accountTotal }, account.currency, true);
  for (const campaign of account.campaigns) {
    if (pdf.y + ROW_HEIGHT > BOTTOM) {
      ensureSpace(pdf, BOTTOM);
      line(pdf, account.name, LEFT, pdf.y, { size: 9, bold: true, colour: COLOURS.muted, width: WIDTH });
      pdf.y += 16;
      header(canvas);
    }
    row(canvas, campaign, account.currency, false);
  }
  if (account.campaigns.length === 0) {
    line(pdf, words.noCampaigns, LEFT + PAD, pdf.y + 6, { size: 8.5, colour: COLOURS.muted, width: WIDTH });
    pdf.y += 22;
  }
  pdf.y += 18;
}
