import { MetaApiError, MetaRateLimitError, MetaTokenExpiredError, type MetaClient } from '@adpilot/meta';

/** What the executor needs to know of an entity right before writing to it. */
export interface LiveEntity {
  status: string | null;
  dailyBudget: number | null;
  lifetimeBudget: number | null;
}

export type LiveField = 'status' | 'daily_budget' | 'lifetime_budget';

export interface EntityWrite {
  id: string;
  field: LiveField;
  /** A status, or a budget in minor units. */
  value: string | number;
}

export type WriteOutcome =
  | { ok: true }
  | { ok: false; kind: 'rate_limited'; retryAfterMs: number | undefined; error: MetaApiError }
  | { ok: false; kind: 'reauth'; error: MetaApiError }
  | { ok: false; kind: 'error'; error: MetaApiError };

const BUDGET_FIELDS = ['daily_budget', 'lifetime_budget'];

const toBudget = (value: unknown) =>
  value === undefined || value === null || value === '' ? null : Number(value as string | number);

export function classify(error: unknown): Exclude<WriteOutcome, { ok: true }> {
  if (error instanceof MetaRateLimitError)
    return { ok: false, kind: 'rate_limited', retryAfterMs: error.retryAfterMs, error };
  if (error instanceof MetaTokenExpiredError) return { ok: false, kind: 'reauth', error };
  if (error instanceof MetaApiError) return { ok: false, kind: 'error', error };
  throw error;
}

/**
 * The rule executor's two conversations with Meta, batched 50 to a request, each item answered on its own: the
 * live values of the entities it is about to change, then the writes.
 */
export class RuleMetaGateway {
  constructor(private readonly meta: MetaClient) {}

  /**
   * Live values by id, asking each entity only for the fields about to change (an ad has no budget fields); an id
   * Meta does not answer (deleted, not ours) is absent from the map.
   */
  async readLive(token: string, wanted: readonly { id: string; field: LiveField }[]): Promise<Map<string, LiveEntity>> {
    const fieldsOf = new Map<string, Set<string>>();
    for (const { id, field } of wanted) {
      const fields = fieldsOf.get(id) ?? new Set<string>();
      for (const name of field === 'status' ? ['status'] : BUDGET_FIELDS) fields.add(name);
      fieldsOf.set(id, fields);
    }
    const ids = [...fieldsOf.keys()];
    const live = new Map<string, LiveEntity>();
    const answers = await this.meta.batch(
      token,
      ids.map((id) => ({
        method: 'GET' as const,
        relativeUrl: `${encodeURIComponent(id)}?fields=${[...(fieldsOf.get(id) ?? [])].join(',')}`,
      })),
    );
    answers.forEach((answer, index) => {
      const id = ids[index];
      if (answer.error && answer.error instanceof MetaRateLimitError) throw answer.error;
      if (answer.error && answer.error instanceof MetaTokenExpiredError) throw answer.error;
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

  async write(token: string, writes: readonly EntityWrite[]): Promise<WriteOutcome[]> {
    if (writes.length === 0) return [];
    const results = await this.meta.batch(
      token,
      writes.map((write) => ({ method: 'POST' as const, relativeUrl: write.id, body: { [write.field]: write.value } })),
    );
    return results.map((result) => (result.error ? classify(result.error) : { ok: true }));
  }
}

/** The live value of the field a ledger row changes. */
export function liveValue(entity: LiveEntity, field: LiveField): string | number | null {
  if (field === 'status') return entity.status;
  return field === 'daily_budget' ? entity.dailyBudget : entity.lifetimeBudget;
}

/** The mirror's column for a value written to Meta. */
export function mirrorChange(field: LiveField, value: string | number) {
  if (field === 'status') return { status: String(value) };
  return field === 'daily_budget' ? { dailyBudget: Number(value) } : { lifetimeBudget: Number(value) };
}
