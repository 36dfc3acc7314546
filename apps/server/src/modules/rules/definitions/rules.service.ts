import {
  describeActivity,
  createRuleRequestSchema,
  RULE_MESSAGES,
  RULE_SCHEDULE_MINUTES,
  RULE_TEMPLATES,
  scaleTemplate,
  SUBSCRIPTION_MESSAGES,
  TEMPLATE_CURRENCY,
  type ScaledRuleTemplate,
  type CreateRuleRequest,
  type Rule,
  type RuleBody,
  type PlanId,
  type UpdateRuleRequest,
} from '@adpilot/contracts';
import type { AutomationRuleRow, TenantScope } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import type { ActivityRepository } from '../../activity/index.ts';
import type { AdMirrorService, OwnWrite } from '../../ad-accounts/index.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';
import { ownWritesOf } from '../ledger/own-writes.ts';
import { presentRule } from './rules.presenter.ts';
import { toDefinition, toRuleBody, warningsOf } from './rule-definition.ts';
import type { RulesRepository } from './rules.repository.ts';
import type { SystemTx, TenantTx, Transactions } from '@adpilot/db';

/** A plan's rule limits: how many rules may be switched on at once (Infinity: any), and how often they may run. */
export interface RulePlanLimits {
  /** The plan these limits are of: a refusal names it (ADR 0058). */
  plan: PlanId;
  /** How many rules this workspace may have switched on (its share of a pooled limit; Infinity: any). */
  activeRules: number;
  /** The plan's own limit, named in a refusal (-1 unlimited); `activeRules` when absent. */
  limit?: number;
  /** The shortest "every N minutes" allowed; 0: any. */
  fastestCheckMinutes: number;
}

/** How many rules a user may have switched on, and how often they may run: the plan's limits (subscription). */
export interface ActiveRuleQuota {
  /**
   * The user's limits, read in the caller's unit of work so that they hold until it ends: a plan change running in
   * parallel either waits for the rule's write or is waited for, never half of each (ADR 0053).
   */
  rulesIn(tx: TenantTx): Promise<RulePlanLimits>;
  /** The furthest back a backtest may look on the workspace's plan (absent: the engine's own maximum). */
  backtestDaysIn?(tx: TenantTx): Promise<{ plan: PlanId; days: number }>;
  /** The scheduler's read across tenants: the fastest "every N minutes" each user's plan allows at `now`. */
  fastestCheckMinutesOf?(tx: SystemTx, userIds: readonly string[], now: Date): Promise<ReadonlyMap<string, number>>;
}
export const UNLIMITED_ACTIVE_RULES: ActiveRuleQuota = {
  rulesIn: async () => ({ plan: 'enterprise', activeRules: Number.POSITIVE_INFINITY, fastestCheckMinutes: 0 }),
};

export interface RulesServiceDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  /** The action ledger: what the sync's watchdog asks of AdPilot's own writes. */
  ledger: Pick<RuleLedgerRepository, 'recentActions'>;
  inputs: AdMirrorService;
  quota: ActiveRuleQuota;
  /** Each person's change to a rule is an entry in the workspace's log, signed by them (ADR 0070). */
  activity: Pick<ActivityRepository, 'insert'>;
  now: () => Date;
}

type RuleChange = 'rule_created' | 'rule_updated' | 'rule_deleted' | 'rule_switched_on' | 'rule_switched_off';

/** The log entry of a person's change to a rule, in the unit of work that makes it. */
export function ruleChangeIn(
  activity: Pick<ActivityRepository, 'insert'>,
  tx: TenantTx,
  code: RuleChange | 'rule_run_requested',
  rule: { id: string; name: string },
): Promise<unknown> {
  const params = { ruleName: rule.name };
  return activity.insert(tx, {
    level: 'info',
    category: 'rule_change',
    description: describeActivity(code, params),
    metadata: { code, params, ruleId: rule.id },
  });
}

/** The refusal names the plan and its limit in `params`, for the web to say both with the way to upgrade. */
const limitReached = ({ plan, activeRules, limit }: RulePlanLimits) =>
  new AppError('PLAN_LIMIT_REACHED', RULE_MESSAGES.activeRuleLimit, 403, undefined, undefined, {
    plan,
    limit: limit ?? activeRules,
  });

/** Spec §3/§4/§6: the signed-in user's automation rules; another user's id answers like a missing one. */
export class RulesService {
  constructor(private readonly deps: RulesServiceDeps) {}

  /**
   * AdPilot's own writes to an account's entities since a moment, in the caller's unit of work (the sync's
   * watchdog, ADR 0076): every ledger row that wrote or may have written, and for a reverted one its revert too.
   */
  async ownWritesIn(tx: TenantTx, adAccountId: string, since: Date): Promise<OwnWrite[]> {
    const rows = await this.deps.ledger.recentActions(tx, [adAccountId], since);
    return rows.flatMap((row) => ownWritesOf(row));
  }

  async list(scope: TenantScope): Promise<Rule[]> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const rows = await this.deps.rulesRepository.list(tx);
      return rows.map((row) => presentRule(row, warningsOf(row, rows)));
    });
  }

  async get(scope: TenantScope, id: string): Promise<Rule> {
    return this.deps.transactions.tenant(scope, async (tx) => this.present(tx, await this.owned(tx, id)));
  }

  async create(scope: TenantScope, body: RuleBody): Promise<Rule> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const plan = await this.deps.quota.rulesIn(tx);
      // A switched-off rule never runs: its cadence is checked against the plan when it is switched on.
      if (body.isActive) scheduleFits(body, plan);
      await this.checkAccounts(tx, body);
      if (body.isActive && (await this.deps.rulesRepository.lockAndCountActive(tx)) >= plan.activeRules)
        throw limitReached(plan);
      const row = await this.deps.rulesRepository.insert(tx, {
        name: body.name,
        description: body.description,
        isActive: body.isActive,
        definition: toDefinition(body),
      });
      await ruleChangeIn(this.deps.activity, tx, 'rule_created', row);
      return this.present(tx, row);
    });
  }

  /** Each given field replaces the stored one; the merged rule is checked again as a whole. */
  async update(scope: TenantScope, id: string, patch: UpdateRuleRequest): Promise<Rule> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      // The plan first, then the rule: the order a plan change takes them in, so neither waits on the other.
      const plan = await this.deps.quota.rulesIn(tx);
      const current = await this.owned(tx, id, { forUpdate: true });
      const merged = parseRule({ ...toRuleBody(current), ...patch });
      // An active rule's new schedule, or switching it on, must fit the plan (a downgrade slowed the others).
      if (merged.isActive && (patch.schedule !== undefined || !current.isActive)) scheduleFits(merged, plan);
      await this.checkAccounts(tx, merged);
      if (
        merged.isActive &&
        !current.isActive &&
        (await this.deps.rulesRepository.lockAndCountActive(tx)) >= plan.activeRules
      )
        throw limitReached(plan);
      const row = await this.deps.rulesRepository.update(
        tx,
        id,
        {
          name: merged.name,
          description: merged.description,
          isActive: merged.isActive,
          definition: toDefinition(merged),
        },
        this.deps.now(),
      );
      if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
      await ruleChangeIn(this.deps.activity, tx, 'rule_updated', row);
      return this.present(tx, row);
    });
  }

  /** Switches a rule on or off; the row lock makes parallel toggles flip one after the other. */
  async toggle(scope: TenantScope, id: string): Promise<Rule> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      const plan = await this.deps.quota.rulesIn(tx);
      const current = await this.owned(tx, id, { forUpdate: true });
      if (!current.isActive) scheduleFits(toRuleBody(current), plan);
      if (!current.isActive && (await this.deps.rulesRepository.lockAndCountActive(tx)) >= plan.activeRules)
        throw limitReached(plan);
      const row = await this.deps.rulesRepository.update(tx, id, { isActive: !current.isActive }, this.deps.now());
      if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
      await ruleChangeIn(this.deps.activity, tx, row.isActive ? 'rule_switched_on' : 'rule_switched_off', row);
      return this.present(tx, row);
    });
  }

  async remove(scope: TenantScope, id: string): Promise<void> {
    await this.deps.transactions.tenant(scope, async (tx) => {
      const name = await this.deps.rulesRepository.delete(tx, id);
      if (name === undefined) throw AppError.notFound(RULE_MESSAGES.notFound);
      await ruleChangeIn(this.deps.activity, tx, 'rule_deleted', { id, name });
    });
  }

  /**
   * A plan change's part in the caller's unit of work: keeps the oldest `limit` active rules switched on and
   * switches off the newest beyond it (Infinity keeps all). Answers the rules switched off.
   */
  async deactivateBeyondLimit(tx: TenantTx, limit: number): Promise<AutomationRuleRow[]> {
    if (!Number.isFinite(limit)) return [];
    return this.deps.rulesRepository.deactivateNewestBeyond(tx, limit, this.deps.now());
  }

  /** How many rules are active in each of these workspaces (a plan's pooled usage, ADR 0110). */
  activeRulesAcross(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, number>> {
    return this.deps.rulesRepository.countActiveAcross(tx, workspaceIds);
  }

  /** How many of the user's rules are active, in the caller's unit of work (the subscription's usage). */
  countActiveIn(tx: TenantTx): Promise<number> {
    return this.deps.rulesRepository.countActive(tx);
  }

  /** The message of the rule's notify action, if it has one, in the caller's unit of work (the notifier's mail). */
  notifyMessageIn(tx: TenantTx, ruleId: string): Promise<string | null> {
    return this.deps.rulesRepository.notifyMessage(tx, ruleId);
  }

  /**
   * An ad account's disconnection, in the caller's unit of work: the rules naming it stop naming it (its id would
   * never come back: a reconnection is a new account), so they neither run on nothing while shown active nor refuse
   * every later edit over an account the user can no longer see. A rule left naming no account would widen to all
   * of the user's accounts, so it is switched off. Answers the rules switched off.
   */
  async forgetAdAccount(tx: TenantTx, adAccountId: string): Promise<AutomationRuleRow[]> {
    const switchedOff: AutomationRuleRow[] = [];
    for (const row of await this.deps.rulesRepository.namingAdAccount(tx, adAccountId)) {
      const body = toRuleBody(row);
      const adAccountIds = body.scope.adAccountIds.filter((id) => id !== adAccountId);
      const isActive = row.isActive && adAccountIds.length > 0;
      const definition = toDefinition({ ...body, scope: { ...body.scope, adAccountIds } });
      await this.deps.rulesRepository.update(tx, row.id, { definition, isActive }, this.deps.now());
      if (row.isActive && !isActive) switchedOff.push(row);
    }
    return switchedOff;
  }

  /**
   * A plan change's part in the caller's unit of work: active rules checking more often than every
   * `fastestMinutes` now run every `fastestMinutes` (switched-off rules keep theirs: they are checked when switched
   * on). Answers the rules slowed.
   */
  async slowToPlan(tx: TenantTx, fastestMinutes: number): Promise<AutomationRuleRow[]> {
    if (fastestMinutes <= 0) return [];
    // The rule format's own interval at or above the plan's, so the slowed rule still reads as a valid one.
    const minutes = RULE_SCHEDULE_MINUTES.find((every) => every >= fastestMinutes) ?? fastestMinutes;
    return this.deps.rulesRepository.slowActiveBelow(tx, minutes, this.deps.now());
  }

  /** The templates with their amounts in `currency` (ADR 0132); baht, as written, by default. */
  templates(currency: string = TEMPLATE_CURRENCY): readonly ScaledRuleTemplate[] {
    return RULE_TEMPLATES.map((template) => scaleTemplate(template, currency));
  }

  private async owned(tx: TenantTx, id: string, options: { forUpdate?: boolean } = {}): Promise<AutomationRuleRow> {
    const row = await this.deps.rulesRepository.find(tx, id, options);
    if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
    return row;
  }

  private async present(tx: TenantTx, row: AutomationRuleRow): Promise<Rule> {
    return presentRule(row, warningsOf(row, await this.deps.rulesRepository.list(tx)));
  }

  /** A rule may only name the caller's own ad accounts: any other id is refused like a wrong value. */
  private async checkAccounts(tx: TenantTx, body: RuleBody): Promise<void> {
    const wanted = [...new Set(body.scope.adAccountIds)];
    if (wanted.length === 0) return;
    const owned = new Set((await this.deps.inputs.accounts(tx, wanted)).map((account) => account.id));
    const index = body.scope.adAccountIds.findIndex((id) => !owned.has(id));
    if (index >= 0) {
      throw new AppError('VALIDATION_ERROR', RULE_MESSAGES.adAccountNotOwned, 400, [
        { field: `scope.adAccountIds.${index}`, message: RULE_MESSAGES.adAccountNotOwned },
      ]);
    }
  }
}

/** A schedule faster than the plan's fastest check is refused on its field, with the upgrade path. */
function scheduleFits(body: { schedule: RuleBody['schedule'] }, { plan, fastestCheckMinutes }: RulePlanLimits): void {
  if (!('everyMinutes' in body.schedule) || body.schedule.everyMinutes >= fastestCheckMinutes) return;
  const message = SUBSCRIPTION_MESSAGES.scheduleTooFast(fastestCheckMinutes);
  throw new AppError(
    'RULE_SCHEDULE_NOT_IN_PLAN',
    message,
    403,
    [{ field: 'schedule.everyMinutes', message }],
    undefined,
    {
      plan,
      limit: fastestCheckMinutes,
    },
  );
}

/** The rule schema's verdict as the API's validation error: one message per field. */
export function parseRule(input: CreateRuleRequest): RuleBody {
  const parsed = createRuleRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const seen = new Set<string>();
  const errors = parsed.error.issues
    .map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }))
    .filter((error) => !seen.has(error.field) && seen.add(error.field));
  throw new AppError('VALIDATION_ERROR', errors[0]?.message ?? 'Invalid rule', 400, errors);
}
