import {
  addDays,
  addTotals,
  derivedMetrics,
  emptyTotals,
  type DailyTotals,
  type DeliveryTotals,
  type EntityLevel,
  localDate,
} from '@adpilot/contracts';
import type { TenantScope, Transactions } from '@adpilot/db';
import type { AdMirrorService } from '../../ad-accounts/index.ts';

/** An account as the assistant reads it. */
export interface ReadAccount {
  id: string;
  name: string;
  currency: string;
  timezone: string;
  readOnly: boolean;
  /**
   * The last whole local day the mirror holds figures for: yesterday in the account's zone, or earlier when the
   * mirror stops earlier (null: no figures yet). Today is still being delivered and revised (ADR 0141).
   */
  lastDay: string | null;
}

/** An entity with its totals over a range: the explorer's list row, as far as the assistant needs it. */
export interface EntityFigures {
  id: string;
  adAccountId: string;
  level: EntityLevel;
  externalId: string;
  name: string;
  status: string;
  currency: string;
  totals: DeliveryTotals;
  cpa: number | null;
  roas: number | null;
  ctr: number | null;
  cpm: number | null;
  frequency: number | null;
}

export interface EntityQuery {
  level: EntityLevel;
  adAccountId?: string;
  /** Only the children of this campaign or ad set (its AdPilot id). */
  parentId?: string;
  from: string;
  to: string;
}

/**
 * What the assistant reads of the mirror: the explorer's read model where it exists (issue 28), and until then this
 * small one over the ad-accounts module's mirror API. Every read runs as the caller, in the caller's workspace.
 */
export interface EntityReads {
  accounts(scope: TenantScope): Promise<ReadAccount[]>;
  entities(scope: TenantScope, query: EntityQuery): Promise<EntityFigures[]>;
  /** One entity by its AdPilot id, with its daily figures over the range; undefined when it is not the caller's. */
  entity(
    scope: TenantScope,
    id: string,
    from: string,
    to: string,
  ): Promise<{ entity: EntityFigures; daily: DailyTotals[] } | undefined>;
}

export function figuresOf(totals: DeliveryTotals) {
  return {
    cpa: derivedMetrics.cpa(totals),
    roas: derivedMetrics.roas(totals),
    ctr: derivedMetrics.ctr(totals),
    cpm: derivedMetrics.cpm(totals),
    frequency: derivedMetrics.frequency(totals),
  };
}

/** How far back the last day with figures is looked for: an account silent for longer has none to speak of. */
const LAST_DAY_LOOKBACK = 90;

function lastWholeDay(last: string | undefined, timezone: string, now: Date): string | null {
  if (!last) return null;
  const yesterday = addDays(localDate(timezone, now.getTime()), -1);
  return last < yesterday ? last : yesterday;
}

type Mirror = Pick<AdMirrorService, 'accounts' | 'entities' | 'insights'>;

/** The interim read model over the mirror (ADR 0140): swapped for the explorer's queries when they land. */
export class MirrorEntityReads implements EntityReads {
  constructor(
    private readonly transactions: Transactions,
    private readonly mirror: Mirror,
    private readonly now: () => Date,
  ) {}

  async accounts(scope: TenantScope): Promise<ReadAccount[]> {
    return this.transactions.tenant(scope, async (tx) => {
      const accounts = await this.mirror.accounts(tx, []);
      const since = addDays(this.now().toISOString().slice(0, 10), -LAST_DAY_LOOKBACK);
      const rows = await this.mirror.insights(
        tx,
        accounts.map((a) => a.id),
        'campaign',
        since,
      );
      const last = new Map<string, string>();
      for (const row of rows) if ((last.get(row.adAccountId) ?? '') < row.date) last.set(row.adAccountId, row.date);
      return accounts.map((account) => ({
        id: account.id,
        name: account.facebookAccountName,
        currency: account.currency,
        timezone: account.timezone,
        readOnly: account.missingScopes.includes('ads_management'),
        lastDay: lastWholeDay(last.get(account.id), account.timezone, this.now()),
      }));
    });
  }

  async entities(scope: TenantScope, query: EntityQuery): Promise<EntityFigures[]> {
    return this.transactions.tenant(scope, async (tx) => {
      const accounts = await this.mirror.accounts(tx, query.adAccountId ? [query.adAccountId] : []);
      if (accounts.length === 0) return [];
      const ids = accounts.map((a) => a.id);
      const currency = new Map(accounts.map((a) => [a.id, a.currency]));
      const all = await this.mirror.entities(tx, ids);
      const parent = query.parentId ? all.find((e) => e.id === query.parentId) : undefined;
      if (query.parentId && !parent) return [];
      const entities = all.filter(
        (e) =>
          e.level === query.level &&
          (!parent || (parent.level === 'campaign' ? e.campaignExternalId : e.adsetExternalId) === parent.externalId),
      );
      const rows = await this.mirror.insights(tx, ids, query.level, query.from);
      const totals = new Map<string, DeliveryTotals>();
      for (const row of rows) {
        if (row.date > query.to) continue;
        const key = `${row.adAccountId}:${row.entityExternalId}`;
        addTotals(totals.get(key) ?? totals.set(key, emptyTotals()).get(key)!, row);
      }
      return entities.map((e) => {
        const sum = totals.get(`${e.adAccountId}:${e.externalId}`) ?? emptyTotals();
        return {
          id: e.id,
          adAccountId: e.adAccountId,
          level: e.level,
          externalId: e.externalId,
          name: e.name,
          status: e.effectiveStatus,
          currency: currency.get(e.adAccountId)!,
          totals: sum,
          ...figuresOf(sum),
        };
      });
    });
  }

  async entity(scope: TenantScope, id: string, from: string, to: string) {
    return this.transactions.tenant(scope, async (tx) => {
      const accounts = await this.mirror.accounts(tx, []);
      const all = await this.mirror.entities(
        tx,
        accounts.map((a) => a.id),
      );
      const found = all.find((e) => e.id === id);
      if (!found) return undefined;
      const account = accounts.find((a) => a.id === found.adAccountId)!;
      const rows = (await this.mirror.insights(tx, [found.adAccountId], found.level, from)).filter(
        (row) => row.entityExternalId === found.externalId && row.date <= to,
      );
      const daily = rows
        .map(({ adAccountId: _a, entityExternalId: _e, ...day }) => day)
        .sort((a, b) => a.date.localeCompare(b.date));
      const sum = daily.reduce((into, day) => addTotals(into, day), emptyTotals());
      return {
        entity: {
          id: found.id,
          adAccountId: found.adAccountId,
          level: found.level,
          externalId: found.externalId,
          name: found.name,
          status: found.effectiveStatus,
          currency: account.currency,
          totals: sum,
          ...figuresOf(sum),
        },
        daily,
      };
    });
  }
}
