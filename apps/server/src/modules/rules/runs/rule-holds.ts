import { RULE_MESSAGES, type RuleHold } from '@adpilot/contracts';
import type { RuleActionRow, TenantScope, Transactions } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import { workspaceJob } from '../../../lib/scope.ts';
import type { RulesRepository } from '../definitions/rules.repository.ts';
import type { RuleExecutor } from './rule-executor.ts';
import type { RuleLedgerRepository } from '../ledger/rule-ledger.repository.ts';

export interface RuleHoldsDeps {
  transactions: Transactions;
  rulesRepository: RulesRepository;
  ledger: RuleLedgerRepository;
  executor: RuleExecutor;
  now: () => Date;
}

/** One hold's resume to write: what the `rule-hold` job carries. */
export interface HoldRequest {
  workspaceId: string;
  /** The resume's ledger row. */
  id: string;
}

export const HOLDS_LISTED = 50;

export const HOLD_MESSAGES = {
  notFound: 'Hold not found',
  notScheduled: 'This hold is not scheduled any more: it was resumed, skipped or cancelled',
} as const;

const STATUS: Record<RuleActionRow['state'], RuleHold['status']> = {
  planned: 'scheduled',
  postponed: 'scheduled',
  applied: 'resumed',
  reverted: 'resumed',
  skipped: 'skipped',
  failed: 'failed',
  cancelled: 'cancelled',
  // A resume is planned by the executor itself, never proposed nor only told: these states never reach a hold.
  proposed: 'cancelled',
  notified: 'cancelled',
};

export function presentHold(row: RuleActionRow): RuleHold {
  const status = STATUS[row.state];
  return {
    actionId: row.holdOf ?? row.id,
    entity: {
      adAccountId: row.adAccountId,
      level: row.targetLevel,
      externalId: row.targetExternalId,
      name: row.targetName,
    },
    resumeAt: (row.dueAt ?? row.createdAt).toISOString(),
    status,
    settledAt: status === 'scheduled' ? null : (row.appliedAt ?? row.updatedAt).toISOString(),
  };
}

/**
 * Timed holds (ADR 0074): a pause with `resumeAfter` leaves its resume in the ledger, due at a moment; the minute
 * tick asks which are due and a `rule-hold` job writes each through the executor, once. A person may resume one
 * now, and list a rule's holds.
 */
export class RuleHoldsService {
  constructor(private readonly deps: RuleHoldsDeps) {}

  /** The resumes due now, across every workspace. */
  due(at: Date): Promise<HoldRequest[]> {
    return this.deps.transactions.system('rule-hold: resumes due', (tx) => this.deps.ledger.dueHolds(tx, at));
  }

  /** The job's work: writes one due resume (nothing when it is not due, taken, or settled already). */
  async run(request: HoldRequest): Promise<void> {
    await this.deps.executor.executeHold(workspaceJob(request.workspaceId), request.id);
  }

  /** The tick and the job in one: every resume due now, written in turn (tests and the in-line worker). */
  async runDue(): Promise<number> {
    const due = await this.due(this.deps.now());
    for (const request of due) await this.run(request);
    return due.length;
  }

  async list(scope: TenantScope, ruleId: string): Promise<RuleHold[]> {
    return this.deps.transactions.tenant(scope, async (tx) => {
      if (!(await this.deps.rulesRepository.find(tx, ruleId))) throw AppError.notFound(RULE_MESSAGES.notFound);
      return (await this.deps.ledger.listHolds(tx, ruleId, HOLDS_LISTED)).map(presentHold);
    });
  }

  /** "Resume now": the scheduled resume of a pause (its ledger id) written at once, signed by the person. */
  async resumeNow(scope: TenantScope, pauseId: string): Promise<RuleHold> {
    const hold = await this.deps.transactions.tenant(scope, (tx) => this.deps.ledger.findHold(tx, pauseId));
    if (!hold) throw AppError.notFound(HOLD_MESSAGES.notFound);
    const refused = () => new AppError('HOLD_NOT_SCHEDULED', HOLD_MESSAGES.notScheduled, 409);
    if (STATUS[hold.state] !== 'scheduled') throw refused();
    const settled = await this.deps.executor.executeHold(scope, hold.id, { now: true });
    if (!settled) throw refused();
    return presentHold(settled);
  }
}
