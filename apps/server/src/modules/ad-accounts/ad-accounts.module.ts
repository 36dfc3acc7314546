import type { Transactions } from '@adpilot/db';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { bindRoutes } from '../../lib/bind-routes.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { connectionRedirectUri, type MetaProvider } from '../../providers/meta/meta-provider.ts';
import type { ActivityRepository } from '../activity/index.ts';
import { AdAccountBackfillService } from './ad-account-backfill.service.ts';
import { defineSyncJobs } from './ad-account-sync.jobs.ts';
import { AdAccountSyncService } from './ad-account-sync.service.ts';
import { AdAccountsRepository } from './ad-accounts.repository.ts';
import { AdMirrorRepository } from './ad-mirror.repository.ts';
import type { OwnWrites } from './external-changes.ts';
import { ExternalChangesRepository } from './external-changes.repository.ts';
import { AdMirrorService } from './ad-mirror.service.ts';
import { EntityReadRepository } from './entity-read.repository.ts';
import { EntityReadService } from './entity-read.service.ts';
import { adAccountsRoutes } from './ad-accounts.routes.ts';
import { SignalsRepository } from './signals.repository.ts';
import { SignalsService } from './signals.service.ts';
import {
  AdAccountsService,
  type AccountRules,
  type AdAccountQuota,
  type SyncScheduler,
} from './ad-accounts.service.ts';

export interface AdAccountSyncDeps {
  transactions: Transactions;
  activity: ActivityRepository;
  meta: MetaProvider;
  secretBox: SecretBox;
  queue: JobQueue;
  /** META_SYNC_INTERVAL_MINUTES: how old an account's data may grow before the five-minute tick syncs it. */
  intervalMinutes: number;
  /** The rules' ledger: a change a sync finds that AdPilot made is not an external change. */
  ownWrites: OwnWrites;
  now: () => Date;
}

/**
 * The ad-accounts module's first part: the sync and its jobs. The rules refresh accounts through the sync and the
 * accounts' disconnection asks the rules, so the sync is built before the rules module and the rest after it.
 */
export function createAdAccountSync(deps: AdAccountSyncDeps) {
  const { transactions, now } = deps;
  const repository = new AdAccountsRepository();
  const signals = new SignalsService({
    transactions,
    repository: new SignalsRepository(),
    accounts: repository,
    activity: deps.activity,
    now,
  });
  const sync = new AdAccountSyncService({
    transactions,
    repository,
    activity: deps.activity,
    metaClient: () => deps.meta.client(),
    secretBox: deps.secretBox,
    externalChanges: new ExternalChangesRepository(),
    ownWrites: deps.ownWrites,
    signals,
    now,
  });
  const backfill = new AdAccountBackfillService({
    transactions,
    repository,
    metaClient: () => deps.meta.client(),
    secretBox: deps.secretBox,
    now,
  });
  const scheduler = defineSyncJobs(deps.queue, {
    transactions,
    sync,
    backfill,
    repository,
    intervalMinutes: deps.intervalMinutes,
    now,
  });
  // The mirror of Meta the sync writes: rules and reports read it through this API (ADR 0066).
  const mirror = new AdMirrorService(new AdMirrorRepository());
  // The explorer's read of the same mirror (issue 28).
  const entityRead = new EntityReadService(new EntityReadRepository());
  return { sync, backfill, scheduler, mirror, entityRead, signals };
}

export type AdAccountSync = ReturnType<typeof createAdAccountSync>;

export interface AdAccountsModuleDeps extends Omit<AdAccountSyncDeps, 'queue' | 'intervalMinutes' | 'ownWrites'> {
  /** The module's first part (createAdAccountSync). */
  accountSync: AdAccountSync;
  /** Takes the place of the queued syncs (tests and benchmarks run them in line). */
  scheduler?: SyncScheduler;
  /** The plan's ad-account limit (subscription's limits). */
  quota: AdAccountQuota;
  /** The rules' part in a disconnection (the rules service). */
  rules: AccountRules;
  publicUrl: string;
  /** The pinned Marketing API version and the day Meta ends it (config.meta). */
  apiVersion?: { version: string; endsAt: string | null };
}

/** Connected Meta ad accounts. Its public API: `service` (the AI reads accounts through it) and `sync`. */
export function createAdAccountsModule(deps: AdAccountsModuleDeps) {
  const { meta } = deps;
  const service = new AdAccountsService({
    transactions: deps.transactions,
    repository: new AdAccountsRepository(),
    activity: deps.activity,
    metaClient: () => meta.client(),
    secretBox: deps.secretBox,
    scheduler: deps.scheduler ?? deps.accountSync.scheduler,
    quota: deps.quota,
    rules: deps.rules,
    isSandbox: () => meta.isSandbox(),
    sandboxWorldHint: (workspaceId) => meta.sandboxWorldHint?.(workspaceId),
    sandboxWorldOwns: (workspaceId, act) => meta.sandboxWorldOwns?.(workspaceId, act) ?? true,
    redirectUri: connectionRedirectUri(deps.publicUrl),
    presenter: {
      adsManagerUrl: (act, isSandbox, holder) => meta.adsManagerUrl(act, isSandbox, holder),
      ...(deps.apiVersion ? { apiVersion: deps.apiVersion } : {}),
    },
    now: deps.now,
  });
  return {
    service,
    sync: deps.accountSync.sync,
    backfill: deps.accountSync.backfill,
    mirror: deps.accountSync.mirror,
    routes: bindRoutes(adAccountsRoutes, { adAccounts: service, signals: deps.accountSync.signals }),
  };
}
