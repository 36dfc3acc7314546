import {
  addDays,
  localDate,
  RULE_MESSAGES,
  toMajorUnits,
  type RuleImpact,
  type RuleImpactQuery,
} from '@adpilot/contracts';
import type { Transactions, TenantScope } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import { MIRROR_REVISED_DAYS, type AdMirrorService, type EntityKey } from '../../ad-accounts/ad-mirror.service.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { RuleLedgerRepository } from './rule-ledger.repository.ts';
import { actionImpact, dailyLine, ruleTotals, type DayFigures, type ImpactActionInput } from './rule-impact.ts';

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
      // Local days of any zone fall within a day either side of UTC's; the exact day is checked per account below.
      const since = new Date(Date.parse(`${query.from}T00:00:00Z`) - 2 * DAY_MS);
      const until = new Date(Date.parse(`${query.to}T00:00:00Z`) + 3 * DAY_MS);
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
        if (day < query.from || day > query.to) continue;
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

      const entities = new Map<string, EntityKey>();
      for (const input of inputs) entities.set(keyOf(input.entity), input.entity);
      const first = addDays(query.from, -SPAN);
      const last = addDays(query.to, SPAN);
      const days = new Map<string, Map<string, DayFigures>>();
      for (const row of await this.deps.inputs.entityDays(tx, [...entities.values()], first, last)) {
        const key = keyOf(row);
        let entity = days.get(key);
        if (!entity) days.set(key, (entity = new Map()));
        entity.set(row.date, { spend: row.spend, results: row.conversions, value: row.conversionValue });
      }

      const clock = { now, revisedDays: MIRROR_REVISED_DAYS };
      const none = new Map<string, DayFigures>();
      const computed = inputs.map((input) => actionImpact(input, days.get(keyOf(input.entity)) ?? none, clock));
      const totals = ruleTotals(computed);
      // The chart's line: the touched entities' days up to yesterday, in the one currency (none when they differ).
      const zone = inputs[0]?.timeZone;
      const yesterday = zone ? addDays(localDate(zone, now.getTime()), -1) : last;
      const lineEnd = last < yesterday ? last : yesterday;
      const daily =
        totals.currency && inputs.length > 0 && first <= lineEnd ? dailyLine(days.values(), first, lineEnd) : [];
      return { from: query.from, to: query.to, actions: computed.map((action) => action.impact), totals, daily };
    });
  }
}
