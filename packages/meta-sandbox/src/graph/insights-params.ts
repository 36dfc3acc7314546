import { INSIGHTS_FIELDS } from '../metrics/format-row.ts';
import { addDays, INSIGHTS_LEVELS, localDate } from '@adpilot/contracts';
import type { InsightsLevel, InsightsQuery } from '../metrics/insights-rows.ts';
import { isCalendarDate } from '../world/time-zone.ts';
import { GraphError, invalidParameter } from './graph-error.ts';
import { fieldList, jsonParam, type Params } from './params.ts';

const LEVELS: readonly InsightsLevel[] = INSIGHTS_LEVELS;
const DEFAULT_FIELDS = ['impressions', 'spend'];
const LAST_DAYS: Record<string, number> = {
  last_3d: 3,
  last_7d: 7,
  last_14d: 14,
  last_28d: 28,
  last_30d: 30,
  last_90d: 90,
};
export const DATE_PRESETS = ['today', 'yesterday', ...Object.keys(LAST_DAYS), 'this_month', 'last_month', 'maximum'];

/** A preset as Meta reads it in the account's time zone: last_Nd ends yesterday, today is today so far. */
function presetRange(preset: string, today: string, firstDay: string): { since: string; until: string } {
  const lastDays = LAST_DAYS[preset];
  if (lastDays !== undefined) return { since: addDays(today, -lastDays), until: addDays(today, -1) };
  const monthStart = `${today.slice(0, 8)}01`;
  switch (preset) {
    case 'today':
      return { since: today, until: today };
    case 'yesterday':
      return { since: addDays(today, -1), until: addDays(today, -1) };
    case 'this_month':
      return { since: monthStart, until: today };
    case 'last_month': {
      const until = addDays(monthStart, -1);
      return { since: `${until.slice(0, 8)}01`, until };
    }
    case 'maximum':
      return { since: firstDay, until: today };
    default:
      throw invalidParameter(`date_preset must be one of the following values: ${DATE_PRESETS.join(', ')}`);
  }
}

function timeRange(params: Params): { since: string; until: string } | undefined {
  const value = jsonParam(params, 'time_range');
  if (value === undefined) return undefined;
  const range = value as { since?: unknown; until?: unknown };
  if (typeof range.since !== 'string' || typeof range.until !== 'string') {
    throw invalidParameter('Param time_range must be an object with since and until dates');
  }
  if (!isCalendarDate(range.since) || !isCalendarDate(range.until) || range.since > range.until) {
    throw invalidParameter('Param time_range has invalid dates: since and until must be YYYY-MM-DD and since <= until');
  }
  return { since: range.since, until: range.until };
}

/** Meta keeps insights for 37 months: an older start date answers 3018. */
const RETENTION_MONTHS = 37;
/** Windows Meta still returns since 7d_view and 28d_view were retired (January 2026). */
const ATTRIBUTION_WINDOWS = new Set(['1d_click', '7d_click', '28d_click', '1d_view', '1d_ev', 'dda', 'default']);
/** Parameters Meta accepts but the sandbox does not simulate: refused rather than silently ignored. */
const NOT_SIMULATED = ['breakdowns', 'action_breakdowns', 'filtering', 'time_ranges', 'summary_action_breakdowns'];

function checkUnsupported(params: Params): void {
  for (const name of NOT_SIMULATED) {
    if (params[name] !== undefined && params[name] !== '' && params[name] !== '[]') {
      throw invalidParameter(`${name} is not simulated by the sandbox: the client must not depend on it`);
    }
  }
  const windows = jsonOrList(params, 'action_attribution_windows');
  for (const window of windows) {
    if (!ATTRIBUTION_WINDOWS.has(window)) {
      throw invalidParameter(
        `action_attribution_windows[${window}] is not a valid value: use ${[...ATTRIBUTION_WINDOWS].join(', ')}`,
      );
    }
  }
}

/** A list parameter sent as a JSON array or as comma-separated names. */
function jsonOrList(params: Params, name: string): string[] {
  const raw = params[name];
  if (raw === undefined || raw === '') return [];
  if (raw.trim().startsWith('[')) {
    const value = jsonParam(params, name);
    if (!Array.isArray(value)) throw invalidParameter(`Param ${name} must be an array`);
    return value.map(String);
  }
  return raw.split(',').map((item) => item.trim());
}

/** The first day Meta still has insights for, in the account's time zone. */
function retentionStart(today: string): string {
  const [year = 0, month = 1, day = 1] = today.split('-').map(Number);
  const total = year * 12 + (month - 1) - RETENTION_MONTHS;
  const start = new Date(Date.UTC(Math.floor(total / 12), total % 12, 1));
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  start.setUTCDate(Math.min(day, lastDay));
  return start.toISOString().slice(0, 10);
}

function increment(raw: string | undefined): number | 'all_days' {
  if (raw === undefined || raw === 'all_days') return 'all_days';
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 90) {
    throw invalidParameter(
      'time_increment must be a number of days from 1 to 90 or all_days (monthly is not simulated)',
    );
  }
  return days;
}

export function parseInsightsQuery(
  params: Params,
  defaultLevel: InsightsLevel,
  timezone: string,
  now: number,
  historyStart: number,
): InsightsQuery {
  const level = (params.level ?? defaultLevel) as InsightsLevel;
  if (!LEVELS.includes(level))
    throw invalidParameter(`level must be one of the following values: ${LEVELS.join(', ')}`);
  const requested = fieldList(params.fields);
  for (const field of requested) {
    if (!INSIGHTS_FIELDS.has(field)) {
      throw invalidParameter(
        `${field} is not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values`,
      );
    }
  }
  checkUnsupported(params);
  const today = localDate(timezone, now);
  const range =
    timeRange(params) ?? presetRange(params.date_preset ?? 'last_30d', today, localDate(timezone, historyStart));
  if (range.since < retentionStart(today)) {
    throw new GraphError({
      message: `(#3018) The start date of the time range cannot be beyond ${RETENTION_MONTHS} months from the current date`,
      code: 3018,
    });
  }
  return {
    level,
    fields: requested.length > 0 ? requested : DEFAULT_FIELDS,
    since: range.since,
    until: range.until,
    increment: increment(params.time_increment),
  };
}
