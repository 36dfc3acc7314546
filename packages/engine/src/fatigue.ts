/**
 * Creative fatigue of one ad (ADR 0122): how often its audience has seen it, and how its CTR and CPM moved from its
 * own first days. Pure: the rule engine's snapshot and any page showing the score (the explorer's column) call the
 * same `scoreFatigue`, or `adFatigue` on an ad's daily rows.
 */

export type FatigueAudience = 'cold' | 'retargeting';

export interface FatigueThresholds {
  /** Impressions per person over the last 7 days at which the frequency part is full. */
  frequency: number;
  /** CTR drop from the first days, in %, at which the CTR part is full. */
  ctrDropPct: number;
  /** CPM rise from the first days, in %, at which the CPM part is full. */
  cpmRisePct: number;
}

/** A retargeting audience is small and expects repeats: it tires later than a cold one. */
export const FATIGUE_THRESHOLDS: Record<FatigueAudience, FatigueThresholds> = {
  cold: { frequency: 3, ctrDropPct: 20, cpmRisePct: 30 },
  retargeting: { frequency: 6, ctrDropPct: 30, cpmRisePct: 40 },
};

/** The score at and above which an ad counts as fatigued (the template's threshold). */
export const FATIGUE_THRESHOLD = 70;
/** The ad's first days with delivery that make its baseline. */
export const FATIGUE_BASELINE_DAYS = 3;
/** The recent days its CTR and CPM are read over (whole days before today); frequency is read over 7. */
export const FATIGUE_RECENT_DAYS = 3;
/** Impressions the baseline and the recent days each need before a score means anything. */
export const FATIGUE_MIN_IMPRESSIONS = 1_000;

const WEIGHTS = { frequency: 40, ctr: 35, cpm: 25 } as const;

export interface FatigueFigures {
  impressions: number;
  clicks: number;
  spend: number;
}

export type FatigueReason =
  | { code: 'frequency_high'; params: { frequency: number; threshold: number } }
  | { code: 'ctr_down'; params: { from: number; to: number; changePct: number; threshold: number } }
  | { code: 'cpm_up'; params: { from: number; to: number; changePct: number; threshold: number } }
  | { code: 'not_enough_data'; params: { impressions: number; needed: number } }
  | { code: 'too_new'; params: { days: number; needed: number } };

export interface Fatigue {
  /** 0–100: 100 when frequency, the CTR drop and the CPM rise are all at their thresholds or beyond. */
  score: number;
  audience: FatigueAudience;
  /** The parts that count towards the score, largest first; or why there is no score (score 0). */
  reasons: FatigueReason[];
}

export interface FatigueInput {
  /** The ad's first days with delivery, summed (at most FATIGUE_BASELINE_DAYS). */
  baseline: FatigueFigures;
  /** The recent days, summed. */
  recent: FatigueFigures;
  /** Impressions ÷ reach over the last 7 days (null when no reach). */
  frequency: number | null;
  /** Whether the baseline ends before the recent days begin (an ad younger than that has no baseline yet). */
  baselineBeforeRecent: boolean;
  /** Days with delivery the baseline holds. */
  baselineDays: number;
  audience?: FatigueAudience | null;
}

const ctr = (f: FatigueFigures) => (f.impressions > 0 ? (f.clicks / f.impressions) * 100 : null);
const cpm = (f: FatigueFigures) => (f.impressions > 0 ? (f.spend / f.impressions) * 1000 : null);
const part = (value: number, full: number) => Math.max(0, Math.min(1, value / full));
const round2 = (value: number) => Math.round(value * 100) / 100;

export function scoreFatigue(input: FatigueInput): Fatigue {
  const audience = input.audience ?? 'cold';
  const limits = FATIGUE_THRESHOLDS[audience];
  if (!input.baselineBeforeRecent || input.baselineDays < FATIGUE_BASELINE_DAYS) {
    return {
      score: 0,
      audience,
      reasons: [
        { code: 'too_new', params: { days: input.baselineDays, needed: FATIGUE_BASELINE_DAYS + FATIGUE_RECENT_DAYS } },
      ],
    };
  }
  const thin = Math.min(input.baseline.impressions, input.recent.impressions);
  if (thin < FATIGUE_MIN_IMPRESSIONS) {
    return {
      score: 0,
      audience,
      reasons: [{ code: 'not_enough_data', params: { impressions: thin, needed: FATIGUE_MIN_IMPRESSIONS } }],
    };
  }
  const parts: { points: number; reason: FatigueReason }[] = [];
  if (input.frequency !== null) {
    parts.push({
      points: WEIGHTS.frequency * part(input.frequency, limits.frequency),
      reason: { code: 'frequency_high', params: { frequency: round2(input.frequency), threshold: limits.frequency } },
    });
  }
  const [ctrFrom, ctrTo] = [ctr(input.baseline), ctr(input.recent)];
  if (ctrFrom !== null && ctrTo !== null && ctrFrom > 0) {
    const drop = ((ctrFrom - ctrTo) / ctrFrom) * 100;
    parts.push({
      points: WEIGHTS.ctr * part(drop, limits.ctrDropPct),
      reason: {
        code: 'ctr_down',
        params: { from: round2(ctrFrom), to: round2(ctrTo), changePct: round2(-drop), threshold: limits.ctrDropPct },
      },
    });
  }
  const [cpmFrom, cpmTo] = [cpm(input.baseline), cpm(input.recent)];
  if (cpmFrom !== null && cpmTo !== null && cpmFrom > 0) {
    const rise = ((cpmTo - cpmFrom) / cpmFrom) * 100;
    parts.push({
      points: WEIGHTS.cpm * part(rise, limits.cpmRisePct),
      reason: {
        code: 'cpm_up',
        params: { from: round2(cpmFrom), to: round2(cpmTo), changePct: round2(rise), threshold: limits.cpmRisePct },
      },
    });
  }
  const score = Math.round(parts.reduce((sum, p) => sum + p.points, 0));
  const reasons = parts
    .filter((p) => p.points > 0)
    .sort((a, b) => b.points - a.points)
    .map((p) => p.reason);
  return { score, audience, reasons };
}

/** One day of an ad, as the mirror holds it: `ago` whole days before the account's local today. */
export interface FatigueDay extends FatigueFigures {
  ago: number;
  reach: number;
}

/**
 * The fatigue of an ad from its daily rows (any order; rows of today and later are ignored): the baseline is its
 * first FATIGUE_BASELINE_DAYS days with impressions, the recent part the FATIGUE_RECENT_DAYS whole days before
 * today, the frequency the last 7 whole days'.
 */
export function adFatigue(days: readonly FatigueDay[], audience?: FatigueAudience | null): Fatigue {
  const past = days.filter((day) => day.ago >= 1).sort((a, b) => b.ago - a.ago);
  const firstDays = past.filter((day) => day.impressions > 0).slice(0, FATIGUE_BASELINE_DAYS);
  const sum = (list: readonly FatigueDay[]) =>
    list.reduce(
      (acc, day) => ({
        impressions: acc.impressions + day.impressions,
        clicks: acc.clicks + day.clicks,
        spend: acc.spend + day.spend,
        reach: acc.reach + day.reach,
      }),
      { impressions: 0, clicks: 0, spend: 0, reach: 0 },
    );
  const recent = sum(past.filter((day) => day.ago <= FATIGUE_RECENT_DAYS));
  const week = sum(past.filter((day) => day.ago <= 7));
  const lastBaseline = firstDays.at(-1)?.ago ?? 0;
  return scoreFatigue({
    baseline: sum(firstDays),
    recent,
    frequency: week.reach > 0 ? week.impressions / week.reach : null,
    baselineBeforeRecent: lastBaseline > FATIGUE_RECENT_DAYS,
    baselineDays: firstDays.length,
    audience: audience ?? null,
  });
}
