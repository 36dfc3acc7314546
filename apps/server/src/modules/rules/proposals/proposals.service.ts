import {
  PROPOSAL_MESSAGES,
  type ApproveAllResult,
  type Proposal,
  type ProposalStatus,
  type RuleActionRecord,
} from '@adpilot/contracts';
import type { AdAccountRow, AutomationRuleRow, RuleActionRow, SystemTx, TenantScope, TenantTx } from '@adpilot/db';
import { AppError } from '../../../lib/app-error.ts';
import { workspaceJob } from '../../../lib/scope.ts';
import { presentAction } from '../definitions/rules.presenter.ts';
import { proposalActivity } from '../runs/rule-activity.ts';
import { isRuleMade } from '../ledger/rule-made.ts';
import { before } from '../runs/rule-decision.ts';
import type { RuleExecutor, RuleWriteDeps } from '../runs/rule-executor.ts';
import { liveValue, type LiveField } from '../runs/rule-meta.ts';
import type { RuleRunScheduler } from '../runs/rule-run-scheduler.ts';
import type { ProposalLinks } from './proposal-links.ts';
import { presentProposal, shownValue } from './proposals.presenter.ts';
import type { ProposalsRepository } from './proposals.repository.ts';

/** Members' names by id, read on the system path (auth's `profilesIn`). */
export interface ProposalDeciders {
  profilesIn(tx: SystemTx, ids: readonly string[]): Promise<{ id: string; name: string }[]>;
}

export interface ProposalsServiceDeps extends RuleWriteDeps {
  proposalsRepository: ProposalsRepository;
  executor: RuleExecutor;
  scheduler: RuleRunScheduler;
  people?: ProposalDeciders;
}

/** An approval older than this whose row is still unwritten on an ended run was left by a crash. */
const STRANDED_AFTER_MS = 5 * 60_000;

/** The Inbox shows at most this many proposals of one status. */
export const PROPOSALS_LISTED = 200;

const closed = () => new AppError('PROPOSAL_CLOSED', PROPOSAL_MESSAGES.closed, 409);

/**
 * Approve mode's proposals (ADR 0073): the list, approve (the live value is read again through the Meta client;
 * a change since the proposal closes it as stale, otherwise the ledger row is released to the executor and written
 * once), reject, approve every proposal of a run, and the expiry of those nobody decided in time.
 */
export class ProposalsService {
  constructor(private readonly deps: ProposalsServiceDeps) {}

  async list(scope: TenantScope, status: ProposalStatus): Promise<Proposal[]> {
    await this.expire(scope.workspaceId);
    const at = this.deps.now();
    const listed = await this.deps.transactions.tenant(scope, (tx) =>
      this.deps.proposalsRepository.listProposals(tx, status, PROPOSALS_LISTED),
    );
    // The history says who decided: the member's name from their account, never a typed text.
    const ids = [...new Set(listed.flatMap(({ row }) => (row.decidedBy ? [row.decidedBy] : [])))];
    const { people } = this.deps;
    const names =
      ids.length > 0 && people
        ? new Map(
            (await this.deps.transactions.system('proposal deciders', (tx) => people.profilesIn(tx, ids))).map(
              (person) => [person.id, person.name],
            ),
          )
        : new Map<string, string>();
    return listed.map(({ row, ruleName }) => presentProposal(row, ruleName, at, names));
  }

  /**
   * Closes the workspace's proposals past their time, each with its entry: the workspace's own step, signed by
   * nobody. Run lazily before a list or a decision, and by the periodic job.
   */
  async expire(workspaceId: string): Promise<number> {
    const { transactions, proposalsRepository, rulesRepository, activity, now } = this.deps;
    const count = await transactions.tenant(workspaceJob(workspaceId), async (tx) => {
      const expired = await proposalsRepository.expireDue(tx, now());
      for (const row of expired) {
        const rule = isRuleMade(row) ? await rulesRepository.find(tx, row.ruleId) : null;
        if (rule !== undefined) await activity.insert(tx, proposalActivity(rule, row, 'rule_proposal_expired'));
      }
      return expired.length;
    });
    this.deps.observer?.recorded('expired', count);
    return count;
  }

  /** Proposals still waiting for a decision at `at`, every workspace's (the metrics' gauge; a partial index). */
  pendingCount(at: Date): Promise<number> {
    return this.deps.transactions.system('pending proposals gauge', (tx) =>
      this.deps.proposalsRepository.countPending(tx, at),
    );
  }

  /** How many proposals wait for a decision now, in the caller's unit of work (a scheduled report's summary). */
  countWaitingIn(tx: TenantTx): Promise<number> {
    return this.deps.proposalsRepository.countWaiting(tx, this.deps.now());
  }

  /** Closes every workspace's proposals past their time (the periodic job); answers how many. */
  async expireAll(at: Date): Promise<number> {
    const { transactions, proposalsRepository } = this.deps;
    const workspaces = await transactions.system('proposal expiry', (tx) =>
      proposalsRepository.workspacesWithExpired(tx, at),
    );
    let expired = 0;
    for (const workspaceId of workspaces) expired += await this.expire(workspaceId);
    return expired;
  }

  /**
   * Opens again, and asks a job for, the runs of approved proposals a crash left unwritten (decided a while ago,
   * their run ended, nobody holding them): the run writes them as it writes any planned row. Answers how many runs.
   */
  async resumeStranded(at: Date): Promise<number> {
    const { transactions, proposalsRepository, ledger, scheduler } = this.deps;
    const runs = await transactions.system('stranded approvals', (tx) =>
      proposalsRepository.strandedApprovals(tx, new Date(at.getTime() - STRANDED_AFTER_MS), at),
    );
    for (const run of runs) {
      await transactions.tenant(workspaceJob(run.workspaceId), (tx) => ledger.reopenRun(tx, run.id));
      await scheduler.enqueueRun({
        workspaceId: run.workspaceId,
        ruleId: run.ruleId,
        slot: run.slot,
        trigger: run.trigger,
      });
    }
    return runs.length;
  }

  /** One proposal, whatever its status (the decision page's preview): 404 for none or another workspace's. */
  async one(scope: TenantScope, id: string): Promise<Proposal> {
    await this.expire(scope.workspaceId);
    const { transactions, ledger, rulesRepository, now } = this.deps;
    return transactions.tenant(scope, async (tx) => {
      const row = await ledger.findAction(tx, id);
      if (!row || row.proposal === null) throw AppError.notFound(PROPOSAL_MESSAGES.notFound);
      const rule = isRuleMade(row) ? await rulesRepository.find(tx, row.ruleId) : null;
      if (rule === undefined) throw AppError.notFound(PROPOSAL_MESSAGES.notFound);
      return presentProposal(row, rule?.name ?? null, now());
    });
  }

  /**
   * The approve and reject links of a "proposed" entry for the member of `tx` (a notification's delivery): none for
   * another entry, a proposal no longer pending, or a member who may not decide.
   */
  async decisionLinksIn(
    tx: TenantTx,
    entry: { metadata: Record<string, unknown> },
    links: ProposalLinks,
    canDecideIn: (tx: TenantTx) => Promise<boolean>,
  ): Promise<{ approve: string; reject: string } | null> {
    const id = entry.metadata.actionId;
    if (entry.metadata.code !== 'rule_action_proposed' || typeof id !== 'string' || tx.userId === null) return null;
    const row = await this.deps.ledger.findAction(tx, id);
    if (!row || row.proposal !== 'pending' || !row.expiresAt || row.expiresAt <= this.deps.now()) return null;
    if (!(await canDecideIn(tx))) return null;
    const claims = {
      proposalId: id,
      userId: tx.userId,
      workspaceId: tx.workspaceId,
      expiresAt: row.expiresAt.getTime(),
    };
    return {
      approve: links.url({ ...claims, decision: 'approve' }),
      reject: links.url({ ...claims, decision: 'reject' }),
    };
  }

  async reject(scope: TenantScope, id: string): Promise<Proposal> {
    await this.expire(scope.workspaceId);
    const { transactions, proposalsRepository, activity, now } = this.deps;
    const rejected = await transactions.tenant(scope, async (tx) => {
      const { rule } = await this.pending(tx, id);
      const at = now();
      const row = await proposalsRepository.decideProposal(tx, id, 'rejected', at);
      if (!row) throw closed();
      await activity.insert(tx, proposalActivity(rule, row, 'rule_proposal_rejected'));
      return presentProposal(row, rule?.name ?? null, at);
    });
    this.deps.observer?.recorded('rejected');
    return rejected;
  }

  async approve(scope: TenantScope, id: string): Promise<{ proposal: Proposal; action: RuleActionRecord }> {
    await this.expire(scope.workspaceId);
    const { transactions } = this.deps;
    const found = await transactions.tenant(scope, (tx) => this.pending(tx, id));
    return this.approveFound(scope, found);
  }

  /** Approves each pending proposal of a run in turn; a stale or meanwhile decided one is reported, not thrown. */
  async approveAll(scope: TenantScope, runId: string): Promise<ApproveAllResult> {
    await this.expire(scope.workspaceId);
    const { transactions, ledger, proposalsRepository } = this.deps;
    const rows = await transactions.tenant(scope, async (tx) => {
      if (!(await ledger.findRun(tx, runId))) throw AppError.notFound(PROPOSAL_MESSAGES.runNotFound);
      return proposalsRepository.runProposals(tx, runId);
    });
    const result: ApproveAllResult = { approved: [], refused: [] };
    for (const row of rows) {
      try {
        const found = await transactions.tenant(scope, (tx) => this.pending(tx, row.id));
        result.approved.push((await this.approveFound(scope, found)).action);
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== 'PROPOSAL_STALE' && error.code !== 'PROPOSAL_CLOSED'))
          throw error;
        result.refused.push({ id: row.id, code: error.code });
      }
    }
    return result;
  }

  /**
   * The proposal with its rule (null: proposed by hand) and account: 404 for none (or another workspace's), 409 once
   * it is closed.
   */
  private async pending(
    tx: TenantTx,
    id: string,
  ): Promise<{ row: RuleActionRow; rule: AutomationRuleRow | null; account: AdAccountRow }> {
    const row = await this.deps.ledger.findAction(tx, id);
    if (!row || row.proposal === null) throw AppError.notFound(PROPOSAL_MESSAGES.notFound);
    const rule = isRuleMade(row) ? await this.deps.rulesRepository.find(tx, row.ruleId) : null;
    const account = await this.deps.inputs.account(tx, row.adAccountId);
    if (rule === undefined || !account) throw AppError.notFound(PROPOSAL_MESSAGES.notFound);
    if (row.proposal !== 'pending') throw closed();
    return { row, rule, account };
  }

  private async approveFound(
    scope: TenantScope,
    { row, rule, account }: { row: RuleActionRow; rule: AutomationRuleRow | null; account: AdAccountRow },
  ): Promise<{ proposal: Proposal; action: RuleActionRecord }> {
    const { transactions, ledger, proposalsRepository, activity, now } = this.deps;
    const current = await this.liveValueOf(row, account);
    if (current !== before(row)) {
      const from = shownValue(row, before(row));
      const to = shownValue(row, current);
      await transactions.tenant(scope, async (tx) => {
        const stale = await proposalsRepository.decideProposal(tx, row.id, 'stale', now());
        if (stale) await activity.insert(tx, proposalActivity(rule, stale, 'rule_proposal_stale', { from, to }));
      });
      throw new AppError(
        'PROPOSAL_STALE',
        PROPOSAL_MESSAGES.stale(String(from), String(to)),
        409,
        undefined,
        undefined,
        { from, to, currency: row.field === 'status' ? null : row.currency },
      );
    }
    const approved = await transactions.tenant(scope, async (tx) => {
      const decided = await proposalsRepository.decideProposal(tx, row.id, 'approved', now());
      if (decided) await activity.insert(tx, proposalActivity(rule, decided, 'rule_proposal_approved'));
      return decided;
    });
    if (!approved) throw closed();
    // A rule's approved change is written as its run would; one made by hand is signed by the person approving it.
    const state = await this.deps.executor.executeRow(rule, account, row.id, rule ? undefined : scope);
    if (state === 'postponed') await this.resumeLater(approved);
    return transactions.tenant(scope, async (tx) => {
      const written = (await ledger.findAction(tx, row.id)) ?? approved;
      return { proposal: presentProposal(written, rule?.name ?? null, now()), action: presentAction(written) };
    });
  }

  /** Meta asked to wait: the run takes the row again when it may (its job writes what is still to write). */
  private async resumeLater(row: RuleActionRow): Promise<void> {
    const { transactions, ledger, scheduler } = this.deps;
    const runId = row.runId;
    if (runId === null) return;
    const run = await transactions.tenant(workspaceJob(row.workspaceId), (tx) => ledger.reopenRun(tx, runId));
    const written = await transactions.tenant(workspaceJob(row.workspaceId), (tx) => ledger.findAction(tx, row.id));
    if (!run) return;
    await scheduler.enqueueRun(
      { workspaceId: run.workspaceId, ruleId: run.ruleId, slot: run.slot, trigger: run.trigger },
      written?.leaseUntil ? { startAfter: written.leaseUntil } : {},
    );
  }

  /** The entity's value now, read through the Meta client as the executor reads it; null when Meta has none. */
  private async liveValueOf(row: RuleActionRow, account: AdAccountRow): Promise<string | number | null> {
    const field = row.field as LiveField;
    const live = await this.deps
      .metaClient()
      .readLiveValues(this.deps.secretBox.decrypt(account.accessTokenEnc), account.facebookAccountId, [
        { id: row.targetExternalId, field },
      ]);
    const entity = live.get(row.targetExternalId);
    return entity ? liveValue(entity, field) : null;
  }
}
