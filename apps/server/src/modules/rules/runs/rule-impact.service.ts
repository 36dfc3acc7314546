import {
  addDays,
  localDate,
  RULE_MESSAGES,
  toMajorUnits,
  type ActionImpact,
  type RuleImpact,
  type RuleImpactQuery,
  type RuleImpactTotals,
} from '@adpilot/contracts';
import type { TenantScope, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import {
  MIRROR_REVISED_DAYS,
  type AdMirrorService,
  type EntityKey,
  type EntityRange,
} from '../../ad-accounts/index.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import {
  actionImpact,
  actionMoney,
  dailyLine,
  ruleTotals,
  type DayFigures,
  type ImpactActionInput,
} from './rule-impact.ts';

export interface RuleImpactDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  ledger: RuleLedgerRepository;
  inputs: AdMirrorService;
  now: () => Date;
}

/** The widest window either side of an action. */
const SPAN = 14;
const DAY_MS = 86_400_000;
const utcDate = (instant: number) => new Date(instant).toISOString().slice(0, 10);
const keyOf = (key: EntityKey) => `${key.adAccountId}|${key.level}|${key.externalId}`;

/**
 * A rule's impact over a range of local days (ADR 0077): its applied actions read from the ledger, their entities'
 * days from the ad-accounts module's mirror, both in the caller's unit of work; the arithmetic is `rule-impact.ts`.
 */
export class RuleImpactService {
  constructor(private readonly deps: RuleImpactDeps) {}

  async impact(scope: TenantScope, ruleId: string, query: RuleImpactQuery): Promise<RuleImpact> {
    const now = this.deps.now();
    return this.deps.transactions.tenant(scope, async (tx) => {
      if (!(await this.deps.rulesRepository.find(tx, ruleId))) throw AppError.notFound(RULE_MESSAGES.notFound);
      const { inputs, days, computed } = await this.computed(tx, ruleId, query.from, query.to, now);
      const totals = ruleTotals(computed);

      // The chart's line: the touched entities' days as read (each from 14 days before its first action to 14 after
      // its last), summed per day over the range ± the widest window, up to yesterday, in the one currency.
      let daily: RuleImpact['daily'] = [];
      const zone = inputs[0]?.timeZone;
      if (totals.currency && zone) {
        const yesterday = addDays(localDate(zone, now.getTime()), -1);
        const end = addDays(query.to, SPAN);
        daily = dailyLine(days.values(), addDays(query.from, -SPAN), end < yesterday ? end : yesterday);
      }
      return { from: query.from, to: query.to, actions: computed.map((action) => action.impact), totals, daily };
    });
  }

  /**
   * Every rule's applied actions of the workspace over from…to (local days), in the caller's unit of work (the
   * dashboard's overview), and the totals of those on or after `totalsFrom` (this month's).
   */
  async workspaceActions(
    tx: TenantTx,
    range: { from: string; to: string; totalsFrom: string },
  ): Promise<{ actions: ActionImpact[]; totals: RuleImpactTotals }> {
    const { computed } = await this.computed(tx, null, range.from, range.to, this.deps.now());
    return {
      actions: computed.map((action) => action.impact),
      totals: ruleTotals(computed.filter((action) => action.impact.localDate >= range.totalsFrom)),
    };
  }

  /**
   * The money of applied actions per currency (never summed across): budgets raised and lowered and the spend
   * pauses avoided, by the same arithmetic as a rule's totals. A scheduled report's rules section.
   */
  moneyByCurrency(
    actions: readonly ActionImpact[],
  ): { currency: string; budgetRaised: number; budgetLowered: number; spendAvoided: number }[] {
    const byCurrency = new Map<string, ActionImpact[]>();
    for (const action of actions) byCurrency.set(action.currency, [...(byCurrency.get(action.currency) ?? []), action]);
    return [...byCurrency].map(([currency, list]) => {
      const money = actionMoney(list);
      return { currency, budgetRaised: money.raised, budgetLowered: money.lowered, spendAvoided: money.avoided };
    });
  }

  /** The applied actions of one rule (or all) whose local day is within from…to, each with its impact. */
  private async computed(tx: TenantTx, ruleId: string | null, from: string, to: string, now: Date) {
    // Local days of any zone fall within a day either side of UTC's; the exact day is checked per account below.
    const since = new Date(Date.parse(`${from}T00:00:00Z`) - 2 * DAY_MS);
    const until = new Date(Date.parse(`${to}T00:00:00Z`) + 3 * DAY_MS);
    const rows = await this.deps.ledger.appliedActions(tx, ruleId, since, until);
    const accounts = new Map(
      (await this.deps.inputs.accounts(tx, [...new Set(rows.map((row) => row.adAccountId))])).map((account) => [
        account.id,
        account,
      ]),
    );
    const inputs: ImpactActionInput[] = [];
    for (const row of rows) {
      const account = accounts.get(row.adAccountId);
      if (!account || !row.appliedAt) continue;
      const day = localDate(account.timezone, row.appliedAt.getTime());
      if (day < from || day > to) continue;
      const budget =
        row.field !== 'status' && row.beforeMinor !== null && row.afterMinor !== null
          ? { from: toMajorUnits(row.beforeMinor, row.currency), to: toMajorUnits(row.afterMinor, row.currency) }
          : null;
      inputs.push({
        id: row.id,
        type: row.actionType,
        // The entity written to: for a budget, its holder, whose figures the change moved.
        entity: {
          adAccountId: row.adAccountId,
          level: row.targetLevel,
          externalId: row.targetExternalId,
          name: row.targetName,
        },
        currency: row.currency,
        timeZone: account.timezone,
        appliedAt: row.appliedAt,
        endedAt: row.revertedAt ?? (row.actionType === 'pause' ? row.resumedAt : null),
        revertedAt: row.revertedAt,
        budget,
      });
    }

    // Each entity's days: its actions' days ± the widest window (UTC dates ± a day cover any zone's local day).
    const ranges = new Map<string, EntityRange>();
    for (const input of inputs) {
      const key = keyOf(input.entity);
      const first = utcDate(input.appliedAt.getTime() - (SPAN + 1) * DAY_MS);
      const last = utcDate(input.appliedAt.getTime() + (SPAN + 1) * DAY_MS);
      const range = ranges.get(key);
      if (!range) ranges.set(key, { ...input.entity, from: first, to: last });
      else {
        if (first < range.from) range.from = first;
        if (last > range.to) range.to = last;
      }
    }
    const days = new Map<string, Map<number, DayFigures>>();
    for (const entity of await this.deps.inputs.entityDays(tx, [...ranges.values()])) {
      days.set(
        keyOf(entity),
        new Map(entity.days.map(([day, spend, results, value]) => [day, { spend, results, value }])),
      );
    }

    const clock = { now, revisedDays: MIRROR_REVISED_DAYS };
    const none = new Map<number, DayFigures>();
    const computed = inputs.map((input) => actionImpact(input, days.get(keyOf(input.entity)) ?? none, clock));
    return { inputs, days, computed };
  }
}
