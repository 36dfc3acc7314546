import {
  RULE_LIMITS,
  RULE_MESSAGES,
  SUBSCRIPTION_MESSAGES,
  type RuleBacktest,
  type RuleBody,
  type RulePreview,
} from '@adpilot/contracts';
import type { ActiveRuleQuota } from '../definitions/rules.service.ts';
import type { AdAccountRow, TenantScope } from '@adpilot/db';
import { ruleWarnings, type EngineRule } from '@adpilot/engine';
import { AppError } from '../../../lib/app-error.ts';
import type { AccountRefresher } from './account-refresher.ts';
import type { MirrorEvaluator } from './rule-evaluator.ts';
import { toEngineRule } from './rule-evaluator.ts';
import type { AdMirrorService } from '../../ad-accounts/index.ts';
import { freshnessMs } from './rule-slots.ts';
import { otherRules } from '../definitions/rule-definition.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { TenantTx, Transactions } from '@adpilot/db';

export interface RulePreviewDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  inputs: AdMirrorService;
  evaluator: MirrorEvaluator;
  refresher: AccountRefresher;
  /** The plan's backtest range (ADR 0113). */
  quota: Pick<ActiveRuleQuota, 'backtestDaysIn'>;
  now: () => Date;
}

/** An unsaved rule has no ledger history of its own: no cooldown of its own applies. */
const UNSAVED_RULE_ID = '00000000-0000-0000-0000-000000000000';

/** What a rule would do now (preview, on the same refreshed mirror a run uses) and over past days (backtest). */
export class RulePreviewService {
  constructor(private readonly deps: RulePreviewDeps) {}

  /** POST /preview: an unsaved rule body. */
  previewBody(scope: TenantScope, body: RuleBody): Promise<RulePreview> {
    return this.preview(scope, { ...body, id: UNSAVED_RULE_ID });
  }

  /** POST /:id/preview: a saved rule, whether it is switched on or not. */
  async previewSaved(scope: TenantScope, id: string): Promise<RulePreview> {
    const row = await this.deps.transactions.tenant(scope, (tx) => this.deps.rulesRepository.find(tx, id));
    if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
    return this.preview(scope, toEngineRule(row));
  }

  async backtest(scope: TenantScope, id: string, asked?: number): Promise<RuleBacktest> {
    const { transactions, rulesRepository, evaluator, now } = this.deps;
    return transactions.tenant(scope, async (tx) => {
      const row = await rulesRepository.find(tx, id);
      if (!row) throw AppError.notFound(RULE_MESSAGES.notFound);
      const range = await this.deps.quota.backtestDaysIn?.(tx);
      const days = asked ?? Math.min(RULE_LIMITS.backtestDaysDefault, range?.days ?? RULE_LIMITS.backtestDaysDefault);
      if (range && days > range.days) {
        throw new AppError(
          'BACKTEST_RANGE_NOT_IN_PLAN',
          SUBSCRIPTION_MESSAGES.backtestTooLong(range.plan, range.days),
          403,
          undefined,
          undefined,
          { plan: range.plan, limit: range.days },
        );
      }
      const rule = toEngineRule(row);
      return evaluator.backtest(tx, rule, await this.accountsOf(tx, rule), now(), days);
    });
  }

  private async preview(scope: TenantScope, rule: EngineRule): Promise<RulePreview> {
    const { transactions, rulesRepository, evaluator, refresher, now } = this.deps;
    const accounts = await transactions.tenant(scope, (tx) => this.accountsOf(tx, rule));
    const fresh: AdAccountRow[] = [];
    for (const account of accounts) fresh.push(await refresher.ensureFresh(account, freshnessMs(rule.schedule)));
    const at = now();
    return transactions.tenant(scope, async (tx) => {
      const evaluation = await evaluator.evaluateBody(tx, rule, fresh, at, { explain: 'all' });
      const plans = evaluation.decisions.flatMap((decision) => decision.actions);
      return {
        evaluatedAt: at.toISOString(),
        entities: evaluation.decisions,
        totals: {
          evaluated: evaluation.evaluated,
          matched: evaluation.matched,
          planned: plans.filter((plan) => plan.outcome === 'planned').length,
          skipped: plans.filter((plan) => plan.outcome === 'skipped').length,
        },
        warnings: ruleWarnings(rule, otherRules(await rulesRepository.list(tx)), rule.id),
      };
    });
  }

  /** The caller's accounts in the rule's scope; naming another user's account is refused like a wrong value. */
  private async accountsOf(tx: TenantTx, rule: EngineRule): Promise<AdAccountRow[]> {
    const accounts = await this.deps.inputs.accounts(tx, rule.scope.adAccountIds);
    const owned = new Set(accounts.map((account) => account.id));
    const index = rule.scope.adAccountIds.findIndex((id) => !owned.has(id));
    if (index >= 0) {
      throw new AppError('VALIDATION_ERROR', RULE_MESSAGES.adAccountNotOwned, 400, [
        { field: `scope.adAccountIds.${index}`, message: RULE_MESSAGES.adAccountNotOwned },
      ]);
    }
    return accounts.filter((account) => !account.needsReauth);
  }
}
