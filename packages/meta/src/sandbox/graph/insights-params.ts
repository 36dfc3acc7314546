import { INSIGHTS_FIELDS } from '../metrics/format-row.ts';
import { INSIGHTS_LEVELS } from '@adpilot/contracts';
import type { InsightsLevel, InsightsQuery } from '../metrics/insights-rows.ts';
import { addDays, isCalendarDate, localDate } from '../world/time-zone.ts';
import { invalidParameter } from './graph-error.ts';
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
  const range =
    timeRange(params) ??
    presetRange(params.date_preset ?? 'last_30d', localDate(timezone, now), localDate(timezone, historyStart));
  return {
    level,
    fields: requested.length > 0 ? requested : DEFAULT_FIELDS,
    since: range.since,
    until: range.until,
    increment: increment(params.time_increment),
  };
}
