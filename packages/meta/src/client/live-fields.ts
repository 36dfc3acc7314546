import { runBatch, type BatchResult } from './batch.ts';
import { MetaRateLimitError, MetaTokenExpiredError } from './errors.ts';
import type { GraphTransport } from './graph-transport.ts';

/** The fields of an object an automation changes: its status or one of its budgets (minor units). */
export type LiveField = 'status' | 'daily_budget' | 'lifetime_budget';

/** An object's changeable values as Meta has them now. */
export interface LiveValues {
  status: string | null;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
}

export interface FieldWrite {
  id: string;
  field: LiveField;
  /** A status, or a budget in minor units. */
  value: string | number;
}

const BUDGET_FIELDS = ['daily_budget', 'lifetime_budget'];

const toBudget = (value: unknown) =>
  value === undefined || value === null || value === '' ? null : Number(value as string | number);

/**
 * Live values of one ad account's objects, batched 50 to a call that names the account, so the account's throttle
 * applies. Each object is asked only for the fields about to change (an ad has no budget fields); an id Meta does
 * not answer (deleted, not ours) is absent from the map. A rate limit or an expired token on any item is thrown: the
 * writes that would follow cannot go either.
 */
export async function readLiveValues(
  transport: GraphTransport,
  token: string,
  accountId: string,
  wanted: readonly { id: string; field: LiveField }[],
): Promise<Map<string, LiveValues>> {
  const fieldsOf = new Map<string, Set<string>>();
  for (const { id, field } of wanted) {
    const fields = fieldsOf.get(id) ?? new Set<string>();
    for (const name of field === 'status' ? ['status'] : BUDGET_FIELDS) fields.add(name);
    fieldsOf.set(id, fields);
  }
  const ids = [...fieldsOf.keys()];
  const answers = await runBatch(
    transport,
    token,
    ids.map((id) => ({
      method: 'GET' as const,
      relativeUrl: `${encodeURIComponent(id)}?fields=${[...(fieldsOf.get(id) ?? [])].join(',')}`,
      accountId,
    })),
  );
  const live = new Map<string, LiveValues>();
  answers.forEach((answer, index) => {
    const id = ids[index];
    if (answer.error instanceof MetaRateLimitError || answer.error instanceof MetaTokenExpiredError) throw answer.error;
    if (!id || answer.error || !answer.body || typeof answer.body !== 'object') return;
    const entity = answer.body as Record<string, unknown>;
    live.set(id, {
      status: typeof entity.status === 'string' ? entity.status : null,
      dailyBudget: toBudget(entity.daily_budget),
      lifetimeBudget: toBudget(entity.lifetime_budget),
    });
  });
  return live;
}

/**
 * Writes to one ad account's objects, batched 50 to a call that names the account (its throttle applies; a batch
 * with writes is never resent whole). Each write is answered on its own, in order, failures as entries.
 */
export async function writeFields(
  transport: GraphTransport,
  token: string,
  accountId: string,
  writes: readonly FieldWrite[],
): Promise<BatchResult[]> {
  if (writes.length === 0) return [];
  return runBatch(
    transport,
    token,
    writes.map((write) => ({
      method: 'POST' as const,
      relativeUrl: write.id,
      body: { [write.field]: write.value },
      accountId,
    })),
  );
}
