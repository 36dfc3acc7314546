/** Spec §5: the JSON box must hold something, and that something must be JSON. */
export type PastedJson = { ok: true; value: unknown } | { ok: false; reason: 'required' | 'invalidJson' };

export function readPastedJson(text: string): PastedJson {
  if (!text.trim()) return { ok: false, reason: 'required' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'invalidJson' };
  }
}

/** Usage bar colour (spec §9): blue below 70 %, yellow above 70, red above 90. */
export function usageTone(percent: number): 'blue' | 'yellow' | 'red' {
  if (percent > 90) return 'red';
  if (percent > 70) return 'yellow';
  return 'blue';
}

/** The share of the month's requests used, 0 for unlimited, capped at 100. */
export function usagePercent(used: number, limit: number): number {
  if (limit === -1 || limit <= 0) return limit === 0 ? 100 : 0;
  return Math.min(100, (used / limit) * 100);
}
