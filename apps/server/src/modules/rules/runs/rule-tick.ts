import type { AdMirrorService } from '../../ad-accounts/index.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import type { RuleRunRequest } from './rule-run-scheduler.ts';
import { dueSlots, type RuleSchedule } from './rule-slots.ts';
import { toRuleBody } from '../definitions/rule-definition.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { ActiveRuleQuota } from '../definitions/rules.service.ts';
import type { Transactions } from '@adpilot/db';

export interface RuleTickDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  ledger: RuleLedgerRepository;
  inputs: AdMirrorService;
  /** The fastest "every N minutes" each user's plan allows now (the plan's limits); absent: any. */
  fastestCheckMinutesOf?: ActiveRuleQuota['fastestCheckMinutesOf'];
}

/**
 * The schedule the scheduler keeps: never more often than the plan allows, whatever the row says (a plan that
 * lapsed after a failed payment, a row written before the plan changed). Daily schedules fit every plan.
 */
export function scheduleWithinPlan(schedule: RuleSchedule, fastestMinutes: number | undefined): RuleSchedule {
  if (!('everyMinutes' in schedule) || fastestMinutes === undefined || schedule.everyMinutes >= fastestMinutes)
    return schedule;
  return { everyMinutes: fastestMinutes };
}

/**
 * The scheduler's question, asked every minute across every tenant (the system path): which active rules have a
 * slot due now that has no run yet. Every N minutes is one slot per window (N no shorter than the user's plan
 * allows); daily is one slot per time zone of the rule's accounts, once their local clock passes the time.
 */
export async function dueRuns(deps: RuleTickDeps, now: Date): Promise<RuleRunRequest[]> {
  const { rules, accounts, fastest } = await deps.transactions.system(
    'rule-tick: active rules and account time zones',
    async (tx) => {
      const rules = await deps.rulesRepository.listActive(tx);
      return {
        rules,
        accounts: await deps.inputs.accountZones(tx),
        fastest: await deps.fastestCheckMinutesOf?.(tx, [...new Set(rules.map((rule) => rule.workspaceId))], now),
      };
    },
  );
  const candidates: RuleRunRequest[] = [];
  for (const rule of rules) {
    const { scope, schedule } = toRuleBody(rule);
    const zones = accounts
      .filter((account) => account.workspaceId === rule.workspaceId)
      .filter((account) => scope.adAccountIds.length === 0 || scope.adAccountIds.includes(account.id))
      .map((account) => account.timezone);
    for (const slot of dueSlots(scheduleWithinPlan(schedule, fastest?.get(rule.workspaceId)), zones, now)) {
      candidates.push({ workspaceId: rule.workspaceId, ruleId: rule.id, slot: slot.key, trigger: 'schedule' });
    }
  }
  const existing = await deps.transactions.system('rule-tick: slots already run', (tx) =>
    deps.ledger.existingRuns(
      tx,
      candidates.map(({ ruleId, slot }) => ({ ruleId, slot })),
    ),
  );
  return candidates.filter((candidate) => !existing.has(`${candidate.ruleId}|${candidate.slot}`));
}
