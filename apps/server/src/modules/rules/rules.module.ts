import { randomBytes } from 'node:crypto';
import { hasRole } from '@adpilot/contracts';
import type { TenantTx, Transactions } from '@adpilot/db';
import type { MetaClient } from '@adpilot/meta';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AdAccountSyncService, AdMirrorService } from '../ad-accounts/index.ts';
import type { WorkspacesService } from '../workspaces/index.ts';
import { AccountRefresher } from './runs/account-refresher.ts';
import { AgentChangesRepository } from './runs/agent-changes.repository.ts';
import { MirrorEvaluator } from './runs/rule-evaluator.ts';
import { HandWrites } from './runs/hand-writes.ts';
import { RuleExecutor, type ExecutorDeps, type RuleActionObserver, type RuleWriteDeps } from './runs/rule-executor.ts';
import { RuleLedgerRepository } from './ledger/rule-ledger.repository.ts';
import { RulePreviewService } from './runs/rule-preview.service.ts';
import { RuleRunner } from './runs/rule-runner.ts';
import type { RuleRunRequest, RuleRunScheduler } from './runs/rule-run-scheduler.ts';
import { dueRuns, type RuleTickDeps } from './runs/rule-tick.ts';
import { RuleImpactService } from './runs/rule-impact.service.ts';
import { RuleRunsService } from './runs/rule-runs.service.ts';
import { RuleHoldsService } from './runs/rule-holds.ts';
import { EntityKnowledgeService } from './runs/entity-knowledge.repository.ts';
import { EntityHistoryService } from './runs/entity-history.repository.ts';
import { defineRuleJobs, queuedRuleRuns, type RuleJobOptions } from './rules.jobs.ts';
import { RulesRepository } from './definitions/rules.repository.ts';
import { RulesService, UNLIMITED_ACTIVE_RULES, type ActiveRuleQuota } from './definitions/rules.service.ts';
import { ProposalsRepository } from './proposals/proposals.repository.ts';
import { ProposalLinks } from './proposals/proposal-links.ts';
import { proposalLinkRoutes } from './proposals/proposal-links.routes.ts';
import { ProposalsService, type ProposalDeciders } from './proposals/proposals.service.ts';
import { proposalsRoutes } from './proposals/proposals.routes.ts';
import { rulesApiRoutes } from './rules-api.routes.ts';

/** Knobs tests and the crash test's worker turn; production uses the defaults. */
export interface RulesOptions {
  quota?: ActiveRuleQuota;
  /** Takes the place of the queue (tests run rules in line). */
  scheduler?: RuleRunScheduler;
  jobs?: RuleJobOptions;
  /** Lease on a ledger row being written (default two minutes). */
  leaseMs?: number;
  afterWrite?: ExecutorDeps['afterWrite'];
}

/**
 * The rules feature: repositories, the engine on the mirror, the executor, the runner and its jobs, the services.
 * Its public API: `service` (ad accounts and billing switch rules off through it); `runner` and `tick` are the jobs'
 * work, which tests and benchmarks also call directly.
 */
export function createRulesModule(
  deps: {
    transactions: Transactions;
    queue: JobQueue;
    /** The client of the Meta app configured now. */
    metaClient: () => MetaClient;
    secretBox: SecretBox;
    activity: ActivityRepository;
    sync: AdAccountSyncService;
    /** The ad-accounts module's mirror: the snapshot rules judge, and the note of a change made at Meta. */
    mirror: AdMirrorService;
    /** The proposals' approve and reject links (ADR 0073): signed with their own key, opening the web's page. */
    links?: ProposalLinks;
    /**
     * The workspaces' memberships: who may decide proposals (an editor or above), asked at each use of a link, or
     * inside a unit of work of that member (a notification's delivery: no second transaction). Without them nobody
     * may decide by link.
     */
    memberships?: Pick<WorkspacesService, 'resolve' | 'roleIn'>;
    /** Told of each ledger row's outcome once committed (the metrics). */
    observer?: RuleActionObserver;
    /** Who decided a proposal, by name, for the Inbox's history (auth's profiles, on the system path). */
    people?: ProposalDeciders;
    now: () => Date;
  },
  options: RulesOptions = {},
) {
  const { transactions, now, secretBox, activity } = deps;
  const rulesRepository = new RulesRepository();
  const ledger = new RuleLedgerRepository();
  const inputs = deps.mirror;
  const evaluator = new MirrorEvaluator(inputs, ledger);
  const refresher = new AccountRefresher({ transactions, inputs, sync: deps.sync, now });
  const writing: RuleWriteDeps = {
    transactions,
    rulesRepository,
    ledger,
    inputs,
    activity,
    metaClient: deps.metaClient,
    secretBox,
    now,
    ...(deps.observer ? { observer: deps.observer } : {}),
  };
  const executor = new RuleExecutor({
    ...writing,
    leaseMs: options.leaseMs ?? 2 * 60_000,
    rateLimitFallbackMs: 5 * 60_000,
    ...(options.afterWrite ? { afterWrite: options.afterWrite } : {}),
  });

  const quota = options.quota ?? UNLIMITED_ACTIVE_RULES;
  const tickDeps: RuleTickDeps = {
    transactions,
    rulesRepository,
    ledger,
    inputs,
    ...(quota.fastestCheckMinutesOf ? { fastestCheckMinutesOf: quota.fastestCheckMinutesOf.bind(quota) } : {}),
  };
  const scheduler = options.scheduler ?? queuedRuleRuns(deps.queue);
  const runner = new RuleRunner({
    transactions,
    rulesRepository,
    ledger,
    inputs,
    activity,
    refresher,
    executor,
    evaluator,
    scheduler,
    now,
    ...(deps.observer ? { observer: deps.observer } : {}),
  });
  const tick = { due: (at: Date): Promise<RuleRunRequest[]> => dueRuns(tickDeps, at) };
  const holds = new RuleHoldsService({ transactions, rulesRepository, ledger, executor, now });
  const links = deps.links ?? new ProposalLinks(randomBytes(32), '', now);
  const { memberships } = deps;
  const canDecide = async (userId: string, workspaceId: string): Promise<boolean> => {
    const membership = memberships ? await memberships.resolve(userId, workspaceId) : null;
    return membership !== null && hasRole(membership.role, 'editor');
  };
  const canDecideIn = async (tx: TenantTx): Promise<boolean> => {
    const role = memberships ? await memberships.roleIn(tx) : null;
    return role !== null && hasRole(role, 'editor');
  };
  const proposals = new ProposalsService({
    ...writing,
    proposalsRepository: new ProposalsRepository(),
    executor,
    scheduler,
    ...(deps.people ? { people: deps.people } : {}),
  });
  const expiry = {
    expireDue: (at: Date) => proposals.expireAll(at),
    resumeStranded: (at: Date) => proposals.resumeStranded(at),
  };
  defineRuleJobs(deps.queue, { runner, tick, holds, expiry, now }, options.jobs);

  const service = new RulesService({ transactions, rulesRepository, ledger, inputs, quota, activity, now });
  const runs = new RuleRunsService({ ...writing, scheduler });
  const impact = new RuleImpactService({ transactions, rulesRepository, ledger, inputs, now });
  const preview = new RulePreviewService({ transactions, rulesRepository, inputs, evaluator, refresher, quota, now });
  return {
    service,
    runs,
    preview,
    impact,
    /** The ledger's path for changes by hand, a person's or an agent's (ADR 0160). */
    handWrites: new HandWrites({ transactions, ledger, executor, activity, metaClient: deps.metaClient, secretBox }),
    /** The changes agents applied themselves (the agent policy's changes per day, ADR 0145). */
    agentChanges: new AgentChangesRepository(),
    /** What the rules know of the explorer's entities (issue 28). */
    knowledge: new EntityKnowledgeService(rulesRepository),
    entityHistory: new EntityHistoryService(),
    /** The jobs' work: one rule's run for one slot, and the minute tick's question (which slots are due now). */
    runner,
    tick,
    /** Timed holds: the `rule-hold` job's work (`run`, `runDue`), the list and "resume now". */
    holds,
    proposals,
    expiry,
    routes: bindRoutes(rulesApiRoutes, {
      rules: service,
      ruleRuns: runs,
      rulePreview: preview,
      ruleHolds: holds,
      ruleImpact: impact,
      proposals,
    }),
    proposalRoutes: bindRoutes(proposalsRoutes, { proposals }),
    /** The approve and reject links: their public routes, and the links a notification carries for a member. */
    proposalLinkRoutes: bindRoutes(proposalLinkRoutes, { proposals, links, canDecide }),
    decisionLinksIn: (tx: TenantTx, entry: { metadata: Record<string, unknown> }) =>
      proposals.decisionLinksIn(tx, entry, links, canDecideIn),
  };
}
