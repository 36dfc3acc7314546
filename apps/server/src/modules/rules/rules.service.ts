import {
  createRuleRequestSchema,
  RULE_MESSAGES,
  RULE_TEMPLATES,
  SUBSCRIPTION_MESSAGES,
  type CreateRuleRequest,
  type Rule,
  type RuleBody,
  type RuleTemplate,
  type UpdateRuleRequest,
} from '@adpilot/contracts';
import type { AutomationRuleRow } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { RuleInputsRepository } from './rule-inputs.repository.ts';
import { presentRule, toDefinition, toRuleBody, warningsOf } from './rules.presenter.ts';
import type { RulesRepository } from './rules.repository.ts';
import type { TenantTx, Transactions } from '@adpilot/db';

/** How many rules a user may have switched on, and how often they may run: the plan's limits (subscription). */
export interface ActiveRuleQuota {
  limit(userId: string): Promise<number>;
  /** The shortest "every N minutes" the plan allows; absent: any. */
  fastestCheckMinutes?(userId: string): Promise<number>;
}
export const UNLIMITED_ACTIVE_RULES: ActiveRuleQuota = { limit: async () => Number.POSITIVE_INFINITY };

export interface RulesServiceDeps {
  db: Transactions;
  rules: RulesRepository;
  inputs: RuleInputsRepository;
  quota: ActiveRuleQuota;
  now: () => Date;
}

const limitReached = () => new AppError('PLAN_LIMIT_REACHED', RULE_MESSAGES.activeRuleLimit, 403);

/** Spec §3/§4/§6: the signed-in user's automation rules; another user's id answers like a missing one. */
export class RulesService {
  constructor(private readonly deps: RulesServiceDeps) {}

  async list(userId: string): Promise<Rule[]> {
    return this.deps.db.tenant(userId, async (tx) => {
      const rows = await this.deps.rules.list(tx);
      return rows.map((row) => presentRule(row, warningsOf(row, rows)));
    });
  }

  async get(userId: string, id: string): Promise<Rule> {
    return this.deps.db.tenant(userId, async (tx) => this.present(tx, await this.owned(tx, id)));
  }

  async create(userId: string, body: RuleBody): Promise<Rule> {
    // A switched-off rule never runs: its cadence is checked against the plan when it is switched on.
    if (body.isActive) await this.checkSchedule(userId, body);
    const limit = await this.deps.quota.limit(userId);
    return this.deps.db.tenant(userId, async (tx) => {
      await this.checkAccounts(tx, body);
      if (body.isActive && (await this.deps.rules.lockAndCountActive(tx)) >= limit) throw limitReached();
      const row = await this.deps.rules.insert(tx, {
        name: body.name,
        description: body.description,
        isActive: body.isActive,
        definition: toDefinition(body),
      });
      return this.present(tx, row);
    });
  }

  /** Each given field replaces the stored one; the merged rule is checked again as a whole. */
  async update(userId: string, id: string, patch: UpdateRuleRequest): Promise<Rule> {
    const limit = await this.deps.quota.limit(userId);
    const fastest = await this.fastestCheckMinutes(userId);
    return this.deps.db.tenant(userId, async (tx) => {
      const current = await this.owned(tx, id, { forUpdate: true });
      const merged = parseRule({ ...toRuleBody(current), ...patch });
      // A rule kept as it was after a downgrade may stay; a new schedule, or switching it on, must fit the plan.
      if (merged.isActive && (patch.schedule !== undefined || !current.isActive)) scheduleFits(merged, fastest);
      await this.checkAccounts(tx, merged);
      if (merged.isActive && !current.isActive && (await this.deps.rules.lockAndCountActive(tx)) >= limit)
        throw limitReached();
      const row = await this.deps.rules.update(
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
      return this.present(tx, row);
    });
  }

  /** Switches a rule on or off; the row lock makes parallel toggles flip one after the other. */
  async toggle(userId: string, id: string): Promise<Rule> {
    const limit = await this.deps.quota.limit(userId);
    const fastest = await this.fastestCheckMinutes(userId);
    return this.deps.db.tenant(userId, async (tx) => {
      const current = await this.owned(tx, id, { forUpdate: true });
      if (!current.isActive) scheduleFits(toRuleBody(current), fastest);
      if (!current.isActive && (await this.deps.rules.lockAndCountActive(tx)) >= limit) throw limitReached();
      const row = await this.deps.rules.update(tx, id, { isActive: !current.isActive }, this.deps.now());
      if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
      return this.present(tx, row);
    });
  }

  async remove(userId: string, id: string): Promise<void> {
    const deleted = await this.deps.db.tenant(userId, (tx) => this.deps.rules.delete(tx, id));
    if (!deleted) throw AppError.notFound(RULE_MESSAGES.notFound);
  }

  /**
   * A plan change's part in the caller's unit of work: keeps the oldest `limit` active rules switched on and
   * switches off the newest beyond it (Infinity keeps all). Answers the rules switched off.
   */
  async deactivateBeyondLimit(tx: TenantTx, limit: number): Promise<AutomationRuleRow[]> {
    if (!Number.isFinite(limit)) return [];
    return this.deps.rules.deactivateNewestBeyond(tx, limit, this.deps.now());
  }

  /**
   * An ad account's disconnection, in the caller's unit of work: the rules naming it stop naming it (its id would
   * never come back: a reconnection is a new account), so they neither run on nothing while shown active nor refuse
   * every later edit over an account the user can no longer see. A rule left naming no account would widen to all
   * of the user's accounts, so it is switched off. Answers the rules switched off.
   */
  async forgetAdAccount(tx: TenantTx, adAccountId: string): Promise<AutomationRuleRow[]> {
    const switchedOff: AutomationRuleRow[] = [];
    for (const row of await this.deps.rules.namingAdAccount(tx, adAccountId)) {
      const body = toRuleBody(row);
      const adAccountIds = body.scope.adAccountIds.filter((id) => id !== adAccountId);
      const isActive = row.isActive && adAccountIds.length > 0;
      const definition = toDefinition({ ...body, scope: { ...body.scope, adAccountIds } });
      await this.deps.rules.update(tx, row.id, { definition, isActive }, this.deps.now());
      if (row.isActive && !isActive) switchedOff.push(row);
    }
    return switchedOff;
  }

  templates(): readonly RuleTemplate[] {
    return RULE_TEMPLATES;
  }

  private async fastestCheckMinutes(userId: string): Promise<number> {
    return (await this.deps.quota.fastestCheckMinutes?.(userId)) ?? 0;
  }

  private async checkSchedule(userId: string, body: { schedule: RuleBody['schedule'] }): Promise<void> {
    scheduleFits(body, await this.fastestCheckMinutes(userId));
  }

  private async owned(tx: TenantTx, id: string, options: { forUpdate?: boolean } = {}): Promise<AutomationRuleRow> {
    const row = await this.deps.rules.find(tx, id, options);
    if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
    return row;
  }

  private async present(tx: TenantTx, row: AutomationRuleRow): Promise<Rule> {
    return presentRule(row, warningsOf(row, await this.deps.rules.list(tx)));
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
function scheduleFits(body: { schedule: RuleBody['schedule'] }, fastestMinutes: number): void {
  if (!('everyMinutes' in body.schedule) || body.schedule.everyMinutes >= fastestMinutes) return;
  const message = SUBSCRIPTION_MESSAGES.scheduleTooFast(fastestMinutes);
  throw new AppError('RULE_SCHEDULE_NOT_IN_PLAN', message, 403, [{ field: 'schedule.everyMinutes', message }]);
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
