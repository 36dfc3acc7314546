import type { DaypartWindow } from '@adpilot/contracts';
import { formatWeekday } from '../../../lib/format.ts';

/** A window's days with runs of neighbours joined: [1, 2, 3, 4, 5, 7] → "Mon–Fri, Sun". */
function daysText(days: readonly number[], language: string): string {
  const sorted = [...new Set(days)].filter((day) => day >= 1 && day <= 7).sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const day of sorted) {
    const last = runs[runs.length - 1];
    if (last && day === last[1] + 1) last[1] = day;
    else runs.push([day, day]);
  }
  return runs
    .map(([from, to]) =>
      from === to ? formatWeekday(from, language) : `${formatWeekday(from, language)}–${formatWeekday(to, language)}`,
    )
    .join(', ');
}

/** Dayparting windows in the reader's language: "Mon–Fri 08:00–20:00; Sat 10:00–14:00". */
export function windowsText(windows: readonly DaypartWindow[], language: string): string {
  return windows
    .map((window) => `${daysText(window.days ?? [], language)} ${window.from || '…'}–${window.to || '…'}`)
    .join('; ');
}
