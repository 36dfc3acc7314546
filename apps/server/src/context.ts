import { join } from 'node:path';
import type { DatabaseHandle } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.ts';
import type { SettingsReader } from './config/runtime-settings.ts';
import { JobQueue, type JobQueueTiming } from './jobs/job-queue.ts';
import { deriveKey, SecretBox } from './lib/crypto.ts';
import { assertBound, port } from './lib/ports.ts';
import { ProposalLinks, createRulesModule, type RulesOptions } from './modules/rules/index.ts';
import { createAccountModule } from './modules/account/index.ts';
import { createActivityModule, ActivityRepository } from './modules/activity/index.ts';
import { agentSignedActivity, createAgentsModule } from './modules/agents/index.ts';
import { createAgentToolsModule } from './modules/agent-tools/index.ts';
import {
  createAdAccountsModule,
  createAdAccountSync,
  type AdAccountQuota,
  type SyncScheduler,
} from './modules/ad-accounts/index.ts';
import { createAdminModule } from './modules/admin/index.ts';
import { createAiModule, type AiOptions } from './modules/ai/index.ts';
import { createAuthModule } from './modules/auth/index.ts';
import { createEntitiesModule } from './modules/entities/index.ts';
import { xlsx, createReportsModule, type ReportScheduleOptions } from './modules/reports/index.ts';
import { createDemoModule } from './modules/demo/index.ts';
import { createDiagnosticsModule } from './modules/diagnostics/index.ts';
import { createHealthModule } from './modules/health/index.ts';
import { createMaintenanceModule } from './modules/maintenance/index.ts';
import { createMcpModule } from './modules/mcp/index.ts';
import { AppMetrics, createMetricsModule } from './modules/metrics/index.ts';
import { createOutboundModule, type MailLimits } from './modules/outbound/index.ts';
import { createNotificationsModule, nudgingActivity, type WebhookRetry } from './modules/notifications/index.ts';
import { createSettingsModule, SettingsRepository, SettingsStore } from './modules/settings/index.ts';
import { type BillingSettings, createPlanLimits, createSubscriptionModule } from './modules/subscription/index.ts';
import { createWorkspacesModule } from './modules/workspaces/index.ts';
import { MailOutbox } from './providers/mail/mail-outbox.ts';
import { MailOutboxRepository } from './providers/mail/mail-outbox.repository.ts';
import { ConfiguredMailer, OutboxMailer, type Mailer } from './providers/mail/mailer.ts';
import { answerAdsManagerHolders } from './providers/meta/ads-manager-holders.ts';
import { createMetaProvider, type MetaProvider } from './providers/meta/meta-provider.ts';
import { APP_VERSION } from './version.ts';

export type { AiOptions } from './modules/ai/index.ts';

// What the ports of `createContext` stand for: the modules' own types, as their factories make them.
type AuthModule = ReturnType<typeof createAuthModule>;
type RulesModule = ReturnType<typeof createRulesModule>;
type NotificationsModule = ReturnType<typeof createNotificationsModule>;
type AdAccountsModule = ReturnType<typeof createAdAccountsModule>;
type EntitiesModule = ReturnType<typeof createEntitiesModule>;
type AgentToolsModule = ReturnType<typeof createAgentToolsModule>;
type OutboundModule = ReturnType<typeof createOutboundModule>;
type PlanLimits = ReturnType<typeof createPlanLimits>;

export interface ContextOptions {
  config: Config;
  database: DatabaseHandle;
  appSecret: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  mailer?: Mailer;
  meta?: MetaProvider;
  /** Tests may take the place of the job queue's scheduler to run syncs in line. */
  scheduler?: SyncScheduler;
  /** The plan's limit on active rules (billing fills it), and what tests turn in the rules feature. */
  rules?: RulesOptions;
  /** Takes the place of the plan's ad-account limit (tests that connect many accounts). */
  adAccountQuota?: AdAccountQuota;
  /** Billing's provider settings (tests point Stripe at a local fake). */
  billing?: BillingSettings;
  jobQueue?: JobQueueTiming;
  /** How often and how soon a failed webhook call is tried again (tests shorten it). */
  webhookRetry?: WebhookRetry;
  ai?: AiOptions;
  /** The scheduled reports' retry wait and renderer (tests shorten the one and fail the other). */
  reports?: ReportScheduleOptions;
  /** The app's metrics, made before the context when a test's Meta provider must report into them too. */
  metrics?: AppMetrics;
  /** Outbound mail's daily budgets (tests make them small; ADR 0092). */
  mailLimits?: Partial<MailLimits>;
  /** The first wait before a refused invitation mail is tried again (tests shorten it; ADR 0098). */
  invitationMailRetrySeconds?: number;
}

/**
 * The server, assembled once per process (or per test): the shared infrastructure, then each module's factory in
 * the order their public APIs need one another (ADR 0065). Each module holds its own repositories and services,
 * declares its own jobs and hands back its route plugins, closed over its own services, and the small API the
 * modules after it are given.
 */
export function createContext(options: ContextOptions) {
  const { config, database, appSecret, log } = options;
  const now = options.now ?? (() => new Date());

  // Shared infrastructure.
  const metrics = options.metrics ?? new AppMetrics();
  const secretBox = new SecretBox(deriveKey(appSecret, 'encryption'));
  const jobs = new JobQueue(database, log, options.jobQueue, metrics.jobs, { schedules: config.role !== 'api' });
  /** The settings seam every provider reads (environment, then Settings, then defaults); see ADR 0044. */
  const settingsStore: SettingsStore & SettingsReader = new SettingsStore({
    config,
    transactions: database,
    database,
    repository: new SettingsRepository(),
    secretBox,
    log,
  });
  const mailOutbox = new MailOutbox(new MailOutboxRepository(database), secretBox);
  const mailer =
    options.mailer ?? new ConfiguredMailer(settingsStore, new OutboxMailer(mailOutbox, log), config.mailFrom);
  const meta = options.meta ?? createMetaProvider(config, settingsStore, metrics.meta);
  const activityWriter = new ActivityRepository();
  const transactions = database;

  // The modules, each after the modules whose API it is given. Where two modules need each other, the one built
  // first is handed a port that the other is bound to once built (ADR 0172); the build ends by checking each is.
  const ports = {
    activity: port<Pick<ActivityRepository, 'insert'>>('activity writer'),
    people: port<Pick<AuthModule['service'], 'profilesIn'>>('auth: people'),
    limiter: port<Pick<AuthModule['limiter'], 'take'>>('auth: limiter'),
    limits: port<Pick<PlanLimits, 'seatsOf' | 'handoverRefusalIn'>>('plan limits'),
    outbound: port<Pick<OutboundModule['service'], 'admit' | 'deliver' | 'confirmIn'>>('outbound mail'),
    rules: port<Pick<RulesModule['service'], 'notifyMessageIn' | 'ownWritesIn' | 'activeRulesAcross'>>('rules'),
    decisionLinks: port<Pick<RulesModule, 'decisionLinksIn'>>('rules: decision links'),
    notifier: port<Pick<NotificationsModule['dispatcher'], 'nudge'>>('notifications: dispatcher'),
    adAccounts: port<Pick<AdAccountsModule['service'], 'countAcross'>>('ad accounts'),
    toolRegistry: port<AgentToolsModule['registry']>('agent tools: registry'),
    manualActions: port<EntitiesModule['actions']>('entities: manual actions'),
  };
  const workspaces = createWorkspacesModule({
    transactions,
    activity: ports.activity.use,
    people: ports.people.use,
    plans: { planOf: (tx, workspaceId) => ports.limits.use.seatsOf(tx, workspaceId) },
    handoverPlans: ports.limits.use,
    limiter: ports.limiter.use,
    outbound: ports.outbound.use,
    queue: jobs,
    ...(options.invitationMailRetrySeconds ? { invitationMailRetrySeconds: options.invitationMailRetrySeconds } : {}),
    publicUrl: config.publicUrl,
    now,
  });
  const auth = createAuthModule({
    transactions,
    plain: database.db,
    appSecret,
    mailer,
    workspaces: workspaces.service,
    publicUrl: config.publicUrl,
    registrationsPerHour: config.registrationsPerHour,
    now,
  });
  ports.people.bind(auth.service);
  ports.limiter.bind(auth.limiter);
  // Mail to others (reports, invitations) goes through one policy: budgets, confirmation, unsubscribe (ADR 0092).
  const outbound = createOutboundModule({
    transactions,
    insiders: {
      verifiedMemberEmailsIn: async (tx, workspaceId) =>
        auth.service.verifiedEmailsIn(tx, await workspaces.service.memberIdsIn(tx, workspaceId)),
      workspaceNameIn: (tx, id) => workspaces.service.nameIn(tx, id),
    },
    limiter: auth.limiter,
    mailer,
    linkKey: deriveKey(appSecret, 'mail-links'),
    publicUrl: config.publicUrl,
    ...(options.mailLimits ? { limits: options.mailLimits } : {}),
    now,
  });
  ports.outbound.bind(outbound.service);
  const notifications = createNotificationsModule({
    transactions,
    activity: activityWriter,
    users: auth.service,
    rules: ports.rules.use,
    decisionLinks: (tx, entry) => ports.decisionLinks.use.decisionLinksIn(tx, entry),
    queue: jobs,
    ...(options.webhookRetry ? { webhookRetry: options.webhookRetry } : {}),
    mailer,
    secretBox,
    publicUrl: config.publicUrl,
    allowedPrivateHosts: config.webhookAllowedPrivateHosts,
    lineApiUrl: config.lineApiUrl,
    limiter: auth.limiter,
    now,
    log,
  });
  // Every module writes activity through this one writer; entries to send at once nudge the notifier, and entries
  // written for an agent are signed with its credential (ADR 0152).
  ports.notifier.bind(notifications.dispatcher);
  const activity = agentSignedActivity(
    nudgingActivity(activityWriter, (workspaceId) => ports.notifier.use.nudge(workspaceId)),
  );
  ports.activity.bind(activity);
  const activityLog = createActivityModule({
    database,
    writer: activity,
    queue: jobs,
    logs: config.logs,
    sessions: auth.service,
    profiles: auth.service,
    memberships: workspaces.service,
    now,
    log,
  });
  const accountSync = createAdAccountSync({
    transactions,
    activity,
    meta,
    secretBox,
    queue: jobs,
    intervalMinutes: config.meta.syncIntervalMinutes,
    ownWrites: ports.rules.use,
    now,
  });
  // A plan is its payer's and covers their workspaces (ADR 0110): the counts are each owner module's, asked once
  // the server runs.
  const limits = createPlanLimits({
    transactions,
    pools: workspaces.service,
    usage: {
      activeRulesIn: (tx, ids) => ports.rules.use.activeRulesAcross(tx, ids),
      adAccountsIn: (tx, ids) => ports.adAccounts.use.countAcross(tx, ids),
      seatsIn: async (tx, ids, at) => {
        const use = await workspaces.invitations.seatUseIn(tx, ids, at);
        return { used: use.holders.size + use.reserved.size, byWorkspace: use.byWorkspace };
      },
    },
    now,
  });
  ports.limits.bind(limits);
  const rules = createRulesModule(
    {
      transactions,
      queue: jobs,
      metaClient: () => meta.client(),
      secretBox,
      activity,
      sync: accountSync.sync,
      mirror: accountSync.mirror,
      links: new ProposalLinks(deriveKey(appSecret, 'proposal-links'), config.publicUrl, now),
      memberships: workspaces.service,
      observer: metrics.ruleActions,
      people: auth.service,
      now,
    },
    { quota: limits, ...options.rules, jobs: { runConcurrency: config.ruleRunConcurrency, ...options.rules?.jobs } },
  );
  ports.rules.bind(rules.service);
  ports.decisionLinks.bind(rules);
  const adAccounts = createAdAccountsModule({
    transactions,
    activity,
    meta,
    secretBox,
    accountSync,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    quota: options.adAccountQuota ?? limits,
    rules: rules.service,
    publicUrl: config.publicUrl,
    apiVersion: { version: config.meta.version, endsAt: config.meta.versionEndsAt },
    now,
  });
  ports.adAccounts.bind(adAccounts.service);
  // The sandbox's Ads Manager links: their holder is asked of the memberships at every use (ADR 0096).
  if (meta.sandbox) {
    answerAdsManagerHolders(meta.sandbox, { transactions, memberships: workspaces.service, people: auth.service });
  }
  createMaintenanceModule({
    transactions,
    auth: auth.service,
    adAccounts: adAccounts.service,
    adAccountSync: accountSync.sync,
    outbox: mailOutbox,
    queue: jobs,
    now,
    log,
  });
  const subscription = createSubscriptionModule({
    transactions,
    limits,
    rules: rules.service,
    accounts: adAccounts.service,
    users: auth.service,
    workspaces: workspaces.service,
    activity,
    settings: settingsStore,
    stripeApiUrl: config.stripeApiUrl,
    billingConfig: config.billing,
    ...(options.billing ? { billing: options.billing } : {}),
    mailer,
    publicUrl: config.publicUrl,
    now,
    log,
  });
  const ai = createAiModule(
    {
      transactions,
      settings: settingsStore,
      addresses: notifications.addressPolicy,
      timeoutMs: config.aiTimeoutMs,
      limits,
      accounts: adAccounts.service,
      mirror: accountSync.mirror,
      // The assistant's tools are the agents' (ADR 0155), and suggested changes are checked by the explorer's dry
      // run: both modules are built after this one, and asked for on first use.
      registry: () => ports.toolRegistry.get(),
      actions: () => ports.manualActions.get(),
      now,
    },
    options.ai,
  );
  // The explorer (issue 28): the read model, manual actions and the export.
  const entities = createEntitiesModule({
    transactions,
    mirror: accountSync.mirror,
    read: accountSync.entityRead,
    knowledge: rules.knowledge,
    history: rules.entityHistory,
    handWrites: rules.handWrites,
    people: auth.service,
    xlsx,
    now,
  });
  ports.manualActions.bind(entities.actions);
  // AI agents: their credentials and policy, the tools defined once, and the MCP endpoint that serves them.
  const agents = createAgentsModule({
    transactions,
    activity,
    people: auth.service,
    workspaces: {
      list: (userId) => workspaces.service.list(userId),
      resolve: (userId, workspaceId) => workspaces.service.resolve(userId, workspaceId),
    },
    mirror: accountSync.mirror,
    agentChanges: rules.agentChanges,
    limiter: auth.limiter,
    queue: jobs,
    publicUrl: config.publicUrl,
    now,
    log,
  });
  const agentTools = createAgentToolsModule({
    adAccounts: adAccounts.service,
    rules: rules.service,
    preview: rules.preview,
    impact: rules.impact,
    ai: ai.service,
    activityLog: activityLog.service,
    proposals: rules.proposals,
    entities: entities.service,
    actions: entities.actions,
    policy: agents.policy,
    transactions,
    activity,
    actingAs: agents.actingAs,
    observer: metrics.toolCalls,
    now,
    log,
  });
  ports.toolRegistry.bind(agentTools.registry);
  const mcp = createMcpModule({
    calls: agentTools.calls,
    agents: agents.authenticator,
    revocations: agents.revocations,
    memberships: workspaces.service,
    limiter: auth.limiter,
    observer: metrics.toolCalls,
    publicUrl: config.publicUrl,
    mcp: config.mcp,
    log,
  });
  // Watch Demo (ADR 0185): the read-only demo workspace, built through the modules above.
  const demo = createDemoModule({
    auth: auth.service,
    limiter: auth.limiter,
    workspaces: workspaces.service,
    adAccounts: adAccounts.service,
    sync: accountSync.sync,
    rules: rules.service,
    runner: rules.runner,
    plans: subscription.service,
    meta,
    queue: jobs,
    log,
    now,
  });
  const modules = {
    health: createHealthModule({ database, queue: jobs, config }),
    demo,
    auth,
    adAccounts,
    admin: createAdminModule({
      transactions,
      secretBox,
      users: auth.service,
      workspaces: workspaces.service,
      plans: subscription.service,
    }),
    rules,
    notifications,
    reports: createReportsModule(
      {
        transactions,
        mirror: accountSync.mirror,
        ruleActions: rules.impact,
        proposals: rules.proposals,
        workspaceName: (tx, id) => workspaces.service.nameIn(tx, id),
        outbound: outbound.service,
        activity,
        limiter: auth.limiter,
        queue: jobs,
        now,
      },
      options.reports,
    ),
    settings: createSettingsModule({
      store: settingsStore,
      database,
      secretBox,
      config,
      meta,
      addresses: notifications.addressPolicy,
    }),
    diagnostics: createDiagnosticsModule({
      config,
      database,
      settings: settingsStore,
      auth,
      plans: subscription.service,
      appVersion: APP_VERSION,
      now,
    }),
    ai,
    subscription,
    activity: activityLog,
    workspaces,
    account: createAccountModule({
      transactions,
      auth: auth.service,
      notifications: notifications.service,
      handover: workspaces.handover,
      memberships: workspaces.memberships,
      subscription: subscription.service,
      queue: jobs,
      export: {
        rules: rules.service,
        activity: activityLog.service,
        tokens: agents.tokens,
        mailer,
        folder: join(config.dataDir, 'exports'),
        publicUrl: config.publicUrl,
        now,
      },
    }),
    outbound,
    agents,
    agentTools,
    mcp,
    entities,
    metrics: createMetricsModule({
      metrics,
      token: config.metricsToken,
      sources: {
        liveStreams: () => activityLog.stream.openStreams(),
        proposalsPending: () => rules.proposals.pendingCount(now()),
        mcpSessions: () => mcp.sessions.count(),
      },
    }),
  };

  assertBound(ports);
  return { config, database, jobs, settingsStore, mailer, meta, metrics, modules };
}

/** What `buildApp`, main.ts and the test harness are handed: the shared infrastructure and the modules. */
export type AppContext = ReturnType<typeof createContext>;
export type AppModules = AppContext['modules'];
