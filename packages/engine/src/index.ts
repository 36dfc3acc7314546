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
export { monthOf, pacingPercent, projectMonth, type MonthPace } from './pacing.ts';
