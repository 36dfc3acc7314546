import {
  MetaApiError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  type BatchResult,
  type LiveField,
  type LiveValues,
} from '@adpilot/meta';

export type { FieldWrite, LiveField, LiveValues } from '@adpilot/meta';

/** Meta's answer to one write, as the executor and a revert act on it. */
export type WriteOutcome =
  | { ok: true }
  | { ok: false; kind: 'rate_limited'; retryAfterMs: number | undefined; error: MetaApiError }
  | { ok: false; kind: 'reauth'; error: MetaApiError }
  | { ok: false; kind: 'error'; error: MetaApiError };

export function classify(error: unknown): Exclude<WriteOutcome, { ok: true }> {
  if (error instanceof MetaRateLimitError)
    return { ok: false, kind: 'rate_limited', retryAfterMs: error.retryAfterMs, error };
  if (error instanceof MetaTokenExpiredError) return { ok: false, kind: 'reauth', error };
  if (error instanceof MetaApiError) return { ok: false, kind: 'error', error };
  throw error;
}

/** One item of a batch of writes. */
export function outcomeOf(result: BatchResult): WriteOutcome {
  return result.error ? classify(result.error) : { ok: true };
}

/** The live value of the field a ledger row changes. */
export function liveValue(entity: LiveValues, field: LiveField): string | number | null {
  if (field === 'status') return entity.status;
  return field === 'daily_budget' ? entity.dailyBudget : entity.lifetimeBudget;
}

/** The mirror's column for a value written to Meta. */
export function mirrorChange(field: LiveField, value: string | number) {
  if (field === 'status') return { status: String(value) };
  return field === 'daily_budget' ? { dailyBudget: Number(value) } : { lifetimeBudget: Number(value) };
}
