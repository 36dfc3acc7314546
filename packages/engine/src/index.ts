export type { EngineAccount, EngineDailyRow, EngineEntity, EngineInput, LedgerEntry, OpposingEntry } from './types.ts';
export { buildSnapshot, EngineInputError, type AccountClock, type EngineSnapshot } from './snapshot.ts';
export {
  compileRule,
  evaluateRule,
  type CompiledRule,
  type EngineRule,
  type EvaluateOptions,
  type RuleEvaluation,
} from './evaluate.ts';
export { backtestRule, type BacktestInput } from './backtest.ts';
export { ruleWarnings, type OtherRule } from './conflicts.ts';
export { endOfLocalDay, localTime, zonedInstant, isoDate, dayNumber } from './time.ts';
export {
  adFatigue,
  scoreFatigue,
  FATIGUE_THRESHOLD,
  FATIGUE_THRESHOLDS,
  type Fatigue,
  type FatigueAudience,
  type FatigueDay,
  type FatigueReason,
} from './fatigue.ts';
export {
  monthOf,
  pacingAlert,
  pacingPercent,
  projectMonth,
  PACING_OVER_PERCENT,
  PACING_UNDER_PERCENT,
  type MonthPace,
  type PacingAlert,
} from './pacing.ts';
export {
  ANOMALY_FACTORS,
  ANOMALY_METRICS,
  ANOMALY_MIN_DAY_SHARE,
  ANOMALY_SENSITIVITIES,
  findAnomalies,
  type AnomalyDay,
  type AnomalyFinding,
  type AnomalyMetric,
  type AnomalySensitivity,
} from './anomaly.ts';
