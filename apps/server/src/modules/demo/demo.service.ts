import { DEMO_MESSAGES, DEMO_SESSIONS_PER_HOUR, type DemoSession } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { MetaProvider } from '../../providers/meta/meta-provider.ts';
import type { AdAccountSyncService, AdAccountsService } from '../ad-accounts/index.ts';
import type { AttemptLimiter, LimitRule, AuthService } from '../auth/index.ts';
import type { SubscriptionService } from '../subscription/index.ts';
import type { RulesService, RuleRunner } from '../rules/index.ts';
import type { WorkspacesService } from '../workspaces/index.ts';
import { demoRules } from './demo-rules.ts';

/** The demo workspace's name, as its owner would have named it. */
export const DEMO_WORKSPACE_NAME = 'Demo shop';

const DEMO_PLAN = 'business';

/** Demo sessions per address an hour, and on the whole instance (the second bounds a spread-out flood). */
const PER_ADDRESS: LimitRule = {
  name: 'demo:address',
  scope: 'address',
  max: DEMO_SESSIONS_PER_HOUR,
  windowSeconds: 3600,
};
const PER_INSTANCE: LimitRule = { name: 'demo:instance', scope: 'account', max: 1000, windowSeconds: 3600 };

export interface DemoDeps {
  auth: Pick<AuthService, 'demoUsers' | 'startDemoSession'>;
  limiter: Pick<AttemptLimiter, 'take'>;
  workspaces: Pick<WorkspacesService, 'create' | 'delete' | 'list' | 'seatDemoVisitor'>;
  adAccounts: Pick<AdAccountsService, 'createAuthUrl' | 'completeConnection'>;
  sync: Pick<AdAccountSyncService, 'sync'>;
  rules: Pick<RulesService, 'create'>;
  runner: Pick<RuleRunner, 'run'>;
  /** The demo owner's plan: room for two demo workspaces' accounts while a rebuild runs. */
  plans: Pick<SubscriptionService, 'assignPlan'>;
  meta: Pick<MetaProvider, 'isSandbox' | 'sandbox'>;
  /** Asks the queue for a build (the `demo-reset` job): a visit never builds the demo itself. */
  requestBuild: () => Promise<unknown>;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * The read-only demo (ADR 0185): one demo workspace at a time, owned by the demo's owner and viewed by its visitor,
 * built on the Meta sandbox through the same services a person's clicks reach (connect, sync, rules, a run of each),
 * rebuilt by `demo-reset`; and the visitors' sessions, counted per address before anything is made.
 */
export class DemoService {
  /** The build under way in this process: parallel first visits wait for one build. */
  private building: Promise<string> | null = null;
  private visitor: { id: string; workspaceId: string | undefined; until: number } | null = null;

  constructor(private readonly deps: DemoDeps) {}

  available(): boolean {
    return this.deps.meta.isSandbox() && this.deps.meta.sandbox !== undefined;
  }

  /**
   * POST /api/demo/session: a demo session in the demo workspace. Before the first demo exists, a build is asked of
   * the queue and the visit answers 503 DEMO_PREPARING with Retry-After (not counted: the web asks again); the build
   * takes seconds of two cores, which no visitor's request may hold.
   */
  async startSession(ip: string): Promise<DemoSession> {
    if (!this.available()) throw new AppError('DEMO_UNAVAILABLE', DEMO_MESSAGES.unavailable, 503);
    const { visitorId } = await this.deps.auth.demoUsers();
    const workspaceId = await this.workspaceOf(visitorId, true);
    if (workspaceId === undefined) {
      await this.deps
        .requestBuild()
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'demo build not queued'));
      throw new AppError('DEMO_PREPARING', DEMO_MESSAGES.preparing, 503, undefined, { 'retry-after': '5' });
    }
    await this.deps.limiter.take([PER_ADDRESS, PER_INSTANCE], { account: 'demo', address: ip }, DEMO_MESSAGES.tooMany);
    const { session, expiresAt } = await this.deps.auth.startDemoSession(visitorId);
    return { ...session, workspaceId, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The demo workspace the visitor views now (undefined: none yet, or `visitorId` is not the visitor), remembered
   * for a few seconds: every request of a demo session asks.
   */
  async workspaceOf(visitorId: string, fresh = false): Promise<string | undefined> {
    const at = this.deps.now().getTime();
    const known = this.visitor;
    if (!fresh && known && known.id === visitorId && known.until > at) return known.workspaceId;
    const [workspace] = await this.deps.workspaces.list(visitorId);
    this.visitor = { id: visitorId, workspaceId: workspace?.id, until: at + 10_000 };
    return workspace?.id;
  }

  /** Builds a new demo workspace, moves the visitor to it and deletes the older ones (the `demo-reset` job). */
  rebuild(): Promise<string> {
    this.building ??= this.build().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  /**
   * The demo owner holds the Business plan (local billing, as the instance administrator would assign it): the old
   * and the new demo workspace's accounts both fit while a rebuild runs, and the demo shows every sandbox account.
   */
  private async holdDemoPlan(ownerId: string): Promise<void> {
    const personal = (await this.deps.workspaces.list(ownerId)).find((w) => w.personal);
    if (!personal) return;
    try {
      await this.deps.plans.assignPlan({ id: ownerId, name: 'AdPilot demo' }, personal.id, DEMO_PLAN);
    } catch (error) {
      // Already on it (every rebuild after the first), or billed through Stripe: the free plan's room then.
      if (!(error instanceof AppError)) throw error;
    }
  }

  private async build(): Promise<string> {
    const { sandbox } = this.deps.meta;
    if (!this.available() || !sandbox) throw new AppError('DEMO_UNAVAILABLE', DEMO_MESSAGES.unavailable, 503);
    const started = Date.now();
    const { ownerId, visitorId } = await this.deps.auth.demoUsers();
    await this.holdDemoPlan(ownerId);
    const workspace = await this.deps.workspaces.create(ownerId, DEMO_WORKSPACE_NAME);
    const scope: TenantScope = { workspaceId: workspace.id, userId: ownerId };
    try {
      await this.fill(scope, sandbox);
    } catch (error) {
      // A build that failed half-way (the sandbox unreachable) leaves no half-built demo behind.
      await this.deps.workspaces.delete(ownerId, workspace.id);
      throw error;
    }
    await this.deps.workspaces.seatDemoVisitor(visitorId, workspace.id);
    this.visitor = null;
    const older = (await this.deps.workspaces.list(ownerId)).filter((w) => !w.personal && w.id !== workspace.id);
    for (const old of older) await this.deps.workspaces.delete(ownerId, old.id);
    this.deps.log.info(
      { workspaceId: workspace.id, removed: older.length, ms: Date.now() - started },
      'demo workspace built',
    );
    return workspace.id;
  }

  /** The demo's content, made as a person would: connect the sandbox's accounts, sync them, write rules, run them. */
  private async fill(scope: TenantScope, sandbox: NonNullable<MetaProvider['sandbox']>): Promise<string[]> {
    // The consent a person gives on the sandbox's screen, given here: the world's first user allows every scope.
    const authUrl = new URL(await this.deps.adAccounts.createAuthUrl(scope));
    const world = sandbox.worldOfHint(authUrl.searchParams.get('sandbox_world') ?? undefined);
    const persona = world?.personas[0];
    if (!world || !persona) throw new Error('the demo sandbox world has no user');
    const code = sandbox.codes.issue(
      { personaId: persona.id, world: world.worldKey, scopes: (authUrl.searchParams.get('scope') ?? '').split(',') },
      authUrl.searchParams.get('redirect_uri') ?? '',
      sandbox.now(),
    );
    const { connectedAccounts } = await this.deps.adAccounts.completeConnection(
      scope,
      code,
      authUrl.searchParams.get('state') ?? '',
    );
    for (const account of connectedAccounts) await this.deps.sync.sync(scope, account.id, { final: true });

    const accountIds = connectedAccounts.map((account) => account.id);
    for (const { body, run } of demoRules(accountIds)) {
      const rule = await this.deps.rules.create(scope, body);
      if (run) {
        await this.deps.runner.run({
          workspaceId: scope.workspaceId,
          ruleId: rule.id,
          slot: `manual:${randomUUID()}`,
          trigger: 'manual',
        });
      }
    }

    return accountIds;
  }
}
