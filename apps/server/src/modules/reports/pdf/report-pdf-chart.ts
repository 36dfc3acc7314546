import type { ReportDay } from '../report-document.ts';
import { COLOURS, LEFT, RIGHT, WIDTH, heading, line, type ReportCanvas } from './report-pdf-layout.ts';

const LEGEND_HEIGHT = 18;
const PLOT_HEIGHT = 130;
const AXIS_HEIGHT = 16;
export const CHART_HEIGHT = LEGEND_HEIGHT + PLOT_HEIGHT + AXIS_HEIGHT + 14;
const AXIS_GUTTER = 46;
const TICKS = 4;

/** The smallest "round" maximum (1, 2, 2.5 or 5 times a power of ten, over `TICKS` steps) at or above `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return TICKS;
  const step = max / TICKS;
  const power = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= step) ?? 10;
  return nice * power * TICKS;
}

function legend(canvas: ReportCanvas, top: number): void {
  const { pdf, words, format } = canvas;
  let x = LEFT;
  const item = (label: string, draw: (x: number) => void) => {
    draw(x);
    line(pdf, label, x + 14, top, { size: 8, colour: COLOURS.muted });
    x += 14 + pdf.widthOfString(label) + 18;
  };
  item(words.spend, (at) => pdf.rect(at, top + 2, 9, 9).fill(COLOURS.spend));
  item(words.results, (at) => {
    pdf
      .moveTo(at, top + 6.5)
      .lineTo(at + 10, top + 6.5)
      .lineWidth(1.6)
      .stroke(COLOURS.results);
  });
  item(words.ruleDays, (at) => {
    pdf.rect(at, top + 1, 10, 11).fill(COLOURS.ruleDay);
    line(pdf, format.count(1), at, top + 1, {
      size: 6.5,
      bold: true,
      colour: COLOURS.ruleMark,
      width: 10,
      align: 'center',
    });
  });
}

/**
 * One currency's days: spend as bars on the left axis, results as a line on the right one, and each day the rules
 * acted shaded, with the number of actions above it.
 */
export function dailyChart(canvas: ReportCanvas, currency: string, days: ReportDay[]): void {
  const { pdf, words, format } = canvas;
  heading(canvas, words.chart, CHART_HEIGHT);
  line(pdf, words.chartCurrency(currency), LEFT, pdf.y - 3, { size: 8.5, colour: COLOURS.muted, width: WIDTH });
  pdf.y += 14;
  const top = pdf.y;
  legend(canvas, top);
  const plotTop = top + LEGEND_HEIGHT + 8;
  const plotBottom = plotTop + PLOT_HEIGHT;
  const plotLeft = LEFT + AXIS_GUTTER;
  const plotRight = RIGHT - AXIS_GUTTER + 12;
  const plotWidth = plotRight - plotLeft;

  if (days.length === 0) {
    line(pdf, words.noDays, plotLeft, plotTop + PLOT_HEIGHT / 2 - 6, { size: 9, colour: COLOURS.muted });
    pdf.y = plotBottom + AXIS_HEIGHT + 14;
    return;
  }

  const spendMax = niceMax(Math.max(...days.map((day) => day.spend)));
  const resultsMax = niceMax(Math.max(...days.map((day) => day.results)));
  const slot = plotWidth / days.length;
  const ySpend = (amount: number) => plotBottom - (amount / spendMax) * PLOT_HEIGHT;
  const yResults = (count: number) => plotBottom - (count / resultsMax) * PLOT_HEIGHT;

  days.forEach((day, index) => {
    if (day.actions > 0) pdf.rect(plotLeft + index * slot, plotTop, slot, PLOT_HEIGHT).fill(COLOURS.ruleDay);
  });
  for (let tick = 0; tick <= TICKS; tick++) {
    const y = plotBottom - (tick / TICKS) * PLOT_HEIGHT;
    pdf
      .moveTo(plotLeft, y)
      .lineTo(plotRight, y)
      .lineWidth(tick === 0 ? 0.8 : 0.4)
      .stroke(tick === 0 ? COLOURS.muted : COLOURS.rule);
    const spendLabel = format.moneyShort((spendMax * tick) / TICKS, currency);
    line(pdf, spendLabel, LEFT, y - 5, { size: 7, colour: COLOURS.spend, width: AXIS_GUTTER - 6, align: 'right' });
    const resultsLabel = format.count((resultsMax * tick) / TICKS);
    line(pdf, resultsLabel, plotRight + 5, y - 5, { size: 7, colour: COLOURS.results });
  }

  const barWidth = Math.max(1, slot * 0.62);
  const labelEvery = Math.ceil(14 / slot);
  days.forEach((day, index) => {
    const x = plotLeft + index * slot;
    const barTop = ySpend(day.spend);
    if (day.spend > 0) pdf.rect(x + (slot - barWidth) / 2, barTop, barWidth, plotBottom - barTop).fill(COLOURS.spend);
    if (index % labelEvery === 0) {
      line(pdf, format.dayOfMonth(day.date), x, plotBottom + 4, {
        size: 7,
        colour: COLOURS.muted,
        width: slot,
        align: 'center',
      });
    }
    if (day.actions > 0) {
      line(pdf, format.count(day.actions), x - 4, plotTop - 10, {
        size: 6.5,
        bold: true,
        colour: COLOURS.ruleMark,
        width: slot + 8,
        align: 'center',
      });
    }
  });

  const points = days.map((day, index) => [plotLeft + (index + 0.5) * slot, yResults(day.results)] as const);
  pdf.moveTo(points[0]![0], points[0]![1]);
  for (const [x, y] of points.slice(1)) pdf.lineTo(x, y);
  pdf.lineWidth(1.6).lineJoin('round').stroke(COLOURS.results);
  if (slot >= 8) for (const [x, y] of points) pdf.circle(x, y, 1.8).fill(COLOURS.results);

  pdf.y = plotBottom + AXIS_HEIGHT + 14;
}
