import type { DatabaseHandle } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.ts';
import { defineSyncJobs } from './jobs/ad-account-sync.jobs.ts';
import { JobQueue, type JobQueueTiming } from './jobs/job-queue.ts';
import { defineMaintenanceJobs } from './jobs/maintenance.jobs.ts';
import { defineNotificationJobs, type WebhookRetry } from './jobs/notifications.jobs.ts';
import { deriveKey, SecretBox } from './lib/crypto.ts';
import { defineActivityJobs } from './jobs/activity.jobs.ts';
import { ACTIVITY_CHANNEL, ActivityStream } from './modules/activity/activity-stream.ts';
import { ActivityRepository } from './modules/activity/activity.repository.ts';
import { ActivityService } from './modules/activity/activity.service.ts';
import { AdAccountSyncService } from './modules/ad-accounts/ad-account-sync.service.ts';
import { AdMirrorRepository } from './modules/ad-accounts/ad-mirror.repository.ts';
import { AdMirrorService } from './modules/ad-accounts/ad-mirror.service.ts';
import { AdminRepository } from './modules/admin/admin.repository.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { AdAccountsRepository } from './modules/ad-accounts/ad-accounts.repository.ts';
import {
  AdAccountsService,
  type AdAccountQuota,
  type SyncScheduler,
} from './modules/ad-accounts/ad-accounts.service.ts';
import { AccessTokens } from './modules/auth/access-token.ts';
import { AttemptLimiter } from './modules/auth/attempt-limiter.ts';
import { AuthRepository } from './modules/auth/auth.repository.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { RateLimitRepository } from './modules/auth/rate-limit.repository.ts';
import { SessionCache } from './modules/auth/session-cache.ts';
import { AiService } from './modules/ai/ai.service.ts';
import type { AiQuota } from './modules/ai/ai-quota.ts';
import { WaitlistRepository } from './modules/ai/waitlist.repository.ts';
import { MaintenanceService } from './modules/maintenance/maintenance.service.ts';
import type { NotificationDispatcher } from './modules/notifications/notification-dispatcher.ts';
import { createNotificationsModule, nudgingActivity } from './modules/notifications/notifications.module.ts';
import type { NotificationsService } from './modules/notifications/notifications.service.ts';
import { ReportsService } from './modules/reports/reports.service.ts';
import { MailOutbox } from './providers/mail/mail-outbox.ts';
import { MailOutboxRepository } from './providers/mail/mail-outbox.repository.ts';
import type { RulePreviewService } from './modules/rules/rule-preview.service.ts';
import type { RuleRunner } from './modules/rules/rule-runner.ts';
import type { RuleRunsService } from './modules/rules/rule-runs.service.ts';
import { createRulesModule, type RulesModule, type RulesOptions } from './modules/rules/rules.module.ts';
import type { RulesService } from './modules/rules/rules.service.ts';
import { ConfiguredMailer, OutboxMailer, smtpMailerFor, type Mailer } from './providers/mail/mailer.ts';
import { SettingsRepository } from './modules/settings/settings.repository.ts';
import { DiagnosticsRepository } from './modules/diagnostics/diagnostics.repository.ts';
import { DiagnosticsService } from './modules/diagnostics/diagnostics.service.ts';
import { APP_VERSION } from './version.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { SettingsStore } from './modules/settings/settings.store.ts';
import { CHECK_TIMEOUT_MS } from './modules/settings/connection-checks.ts';
import type { SettingsReader } from './config/runtime-settings.ts';
import { PlanLimits } from './modules/subscription/plan-limits.ts';
import { billingSettingsFrom, type BillingSettings } from './modules/subscription/billing-settings.ts';
import { BillingWebhooks } from './modules/subscription/billing-webhooks.ts';
import { StripeGateways } from './modules/subscription/stripe-gateway.ts';
import { SubscriptionRepository } from './modules/subscription/subscription.repository.ts';
import { SubscriptionService } from './modules/subscription/subscription.service.ts';
import { createMetaProvider, type MetaProvider } from './providers/meta/meta-provider.ts';
import { aiSettingsFrom, createAiProviderResolver, type AiSettingsSource } from './providers/ai/ai-provider-factory.ts';

/** Everything the routes and jobs need, built once per process (or per test) and passed down explicitly. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  secretBox: SecretBox;
  accessTokens: AccessTokens;
  /** Live sessions kept in memory; `buildApp` connects it to the database's notifications. */
  sessions: SessionCache;
  mailer: Mailer;
  mailOutbox: MailOutbox;
  auth: AuthService;
  meta: MetaProvider;
  jobs: JobQueue;
  adAccounts: AdAccountsService;
  adAccountSync: AdAccountSyncService;
  rules: RulesService;
  ruleRuns: RuleRunsService;
  rulePreview: RulePreviewService;
  ruleRunner: RuleRunner;
  ruleTick: RulesModule['ruleTick'];
  admin: AdminService;
  notifications: NotificationsService;
  notificationDispatcher: NotificationDispatcher;
  reports: ReportsService;
  /** The settings seam every provider reads (environment, then Settings, then defaults); see ADR 0044. */
  settingsStore: SettingsStore & SettingsReader;
  settings: SettingsService;
  diagnostics: DiagnosticsService;
  ai: AiService;
  /** The one limits seam every feature uses (active rules, rule cadence, ad accounts, AI requests). */
  limits: PlanLimits;
  subscription: SubscriptionService;
  billingWebhooks: BillingWebhooks;
  activity: ActivityService;
  activityStream: ActivityStream;
  now: () => Date;
}

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
}

export interface AiOptions {
  /** The plan's monthly AI requests (billing's limits seam). */
  quota?: AiQuota;
  /** Where the provider settings are read on each request (by default the settings seam). */
  settings?: AiSettingsSource;
}

/** The database connection as Settings shows it: where the data lives, never the password. */
function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PGlite in ${config.dataDir}/pglite`;
  try {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return 'postgres (DATABASE_URL)';
  }
}

export function createContext(options: ContextOptions): AppContext {
  const { config, database, appSecret, log } = options;
  const now = options.now ?? (() => new Date());
  const secretBox = new SecretBox(deriveKey(appSecret, 'encryption'));
  const authRepository = new AuthRepository(database, database.db);
  const mailOutbox = new MailOutbox(new MailOutboxRepository(database), secretBox);
  const settingsRepository = new SettingsRepository();
  const settingsStore = new SettingsStore({
    config,
    transactions: database,
    database,
    repository: settingsRepository,
    secretBox,
    log,
  });
  const mailer =
    options.mailer ?? new ConfiguredMailer(settingsStore, new OutboxMailer(mailOutbox, log), config.mailFrom);
  const accessTokens = new AccessTokens(deriveKey(appSecret, 'jwt'), now);
  const sessions = new SessionCache({ now });
  const limiter = new AttemptLimiter(new RateLimitRepository(database), deriveKey(appSecret, 'rate-limit'), now);
  const auth = new AuthService({
    repository: authRepository,
    accessTokens,
    limiter,
    mailer,
    publicUrl: config.publicUrl,
    sessions,
    registrationsPerHour: config.registrationsPerHour,
    now,
  });

  const subscriptionRepository = new SubscriptionRepository();
  const limits = new PlanLimits({ db: database, repository: subscriptionRepository, now });

  const meta = options.meta ?? createMetaProvider(config, settingsStore);
  const jobs = new JobQueue(database, log, options.jobQueue);
  const activityWriter = new ActivityRepository();
  const notificationsModule = createNotificationsModule({
    transactions: database,
    activity: activityWriter,
    users: auth,
    // The rules are built below (they write activity through the notifier's nudge): asked for at use.
    rules: { notifyMessageIn: (tx, ruleId) => rulesModule.rules.notifyMessageIn(tx, ruleId) },
    queue: jobs,
    mailer,
    secretBox,
    publicUrl: config.publicUrl,
    allowedPrivateHosts: config.webhookAllowedPrivateHosts,
    limiter,
    now,
    log,
  });
  defineNotificationJobs(jobs, notificationsModule.notificationDispatcher, options.webhookRetry);
  // Every module writes activity through this one writer; entries to send at once nudge the notifier.
  const activity = nudgingActivity(activityWriter, (userId) =>
    notificationsModule.notificationDispatcher.nudge(userId),
  );
  // The Logs API's service: its notes go through the same writer, so an error note is sent at once too.
  const activityService = new ActivityService({ transactions: database, repository: activity });
  const activityStream = new ActivityStream({
    service: activityService,
    listen: (listener) => database.listen(ACTIVITY_CHANNEL, listener),
    log,
  });
  const adAccountsRepository = new AdAccountsRepository();
  const adAccountSync = new AdAccountSyncService({
    transactions: database,
    repository: adAccountsRepository,
    activity,
    metaClient: () => meta.client(),
    secretBox,
    now,
  });
  const adMirror = new AdMirrorService(new AdMirrorRepository());
  const queuedScheduler = defineSyncJobs(jobs, {
    transactions: database,
    sync: adAccountSync,
    repository: adAccountsRepository,
    intervalMinutes: config.meta.syncIntervalMinutes,
    now,
  });
  defineActivityJobs(jobs, { activity: activityService, retentionDays: config.logs.retentionDays, now, log });
  const rulesModule = createRulesModule(
    {
      transactions: database,
      queue: jobs,
      metaClient: () => meta.client(),
      secretBox,
      activity,
      sync: adAccountSync,
      mirror: adMirror,
      now,
    },
    { quota: limits, ...options.rules },
  );
  const adAccounts = new AdAccountsService({
    transactions: database,
    repository: adAccountsRepository,
    activity,
    metaClient: () => meta.client(),
    secretBox,
    scheduler: options.scheduler ?? queuedScheduler,
    quota: options.adAccountQuota ?? limits,
    rules: rulesModule.rules,
    isSandbox: () => meta.isSandbox(),
    redirectUri: `${config.publicUrl}/ad-accounts`,
    presenter: meta,
    now,
  });
  defineMaintenanceJobs(jobs, {
    maintenance: new MaintenanceService({
      transactions: database,
      auth,
      adAccounts,
      adAccountSync,
      outbox: mailOutbox,
    }),
    now,
    log,
  });
  const billingSettings = options.billing ?? billingSettingsFrom(settingsStore, config.stripeApiUrl);
  const stripeGateways = new StripeGateways();
  const subscription = new SubscriptionService({
    db: database,
    repository: subscriptionRepository,
    limits,
    rules: rulesModule.rules,
    accounts: adAccounts,
    users: auth,
    activity,
    billing: billingSettings,
    gateways: stripeGateways,
    publicUrl: config.publicUrl,
    now,
  });
  const billingWebhooks = new BillingWebhooks({
    db: database,
    repository: subscriptionRepository,
    subscription,
    users: auth,
    activity,
    billing: billingSettings,
    gateways: stripeGateways,
    mailer,
    log,
    now,
  });

  const aiSettings = options.ai?.settings ?? aiSettingsFrom(settingsStore, config.aiTimeoutMs);
  const ai = new AiService({
    providers: createAiProviderResolver(aiSettings),
    settings: aiSettings,
    quota: options.ai?.quota ?? limits.aiQuota,
    ruleChecks: {
      fastestCheckMinutes: (userId) =>
        database.tenant(userId, async (tx) => (await limits.rulesIn(tx)).fastestCheckMinutes),
    },
    accounts: adAccounts,
    db: database,
    waitlist: new WaitlistRepository(),
  });

  return {
    config,
    database,
    secretBox,
    accessTokens,
    sessions,
    mailer,
    mailOutbox,
    auth,
    meta,
    jobs,
    adAccounts,
    adAccountSync,
    ...rulesModule,
    admin: new AdminService({ transactions: database, repository: new AdminRepository(), secretBox }),
    ...notificationsModule,
    reports: new ReportsService({ transactions: database, mirror: adMirror }),
    settingsStore,
    settings: new SettingsService({
      store: settingsStore,
      transactions: database,
      repository: settingsRepository,
      secretBox,
      config,
      database: { kind: database.kind, description: describeDatabase(config) },
      checks: {
        fetch: (...args) => globalThis.fetch(...args),
        stripeApiUrl: config.stripeApiUrl,
        verifyMetaApp: (timeoutMs) => meta.verifyApp(timeoutMs),
        selectOne: () => database.system('settings: connection test', (tx) => settingsRepository.selectOne(tx)),
        verifySmtp: async (mail) => {
          const smtp = smtpMailerFor(mail, config.mailFrom, CHECK_TIMEOUT_MS);
          if (!smtp) throw new Error('no SMTP server configured');
          try {
            await smtp.verify();
          } finally {
            smtp.close();
          }
        },
      },
    }),
    diagnostics: new DiagnosticsService({
      enabled: config.diagnosticsEnabled,
      config,
      database: { kind: database.kind },
      transactions: database,
      repository: new DiagnosticsRepository(),
      settings: settingsStore,
      auth,
      plans: subscription,
      accessTokens,
      limiter,
      appVersion: APP_VERSION,
      now,
    }),
    ai,
    limits,
    subscription,
    billingWebhooks,
    activity: activityService,
    activityStream,
    now,
  };
}
