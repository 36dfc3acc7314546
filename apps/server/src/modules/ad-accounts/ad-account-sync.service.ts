import { workspaceJob } from '../../lib/scope.ts';
import { addDays, describeActivity, localDate, type SyncErrorCode } from '@adpilot/contracts';
import type { AdAccountRow, SystemTx, Transactions, TenantScope, TenantTx } from '@adpilot/db';
import {
  MetaApiError,
  MetaPermissionError,
  MetaRateLimitError,
  MetaTokenExpiredError,
  type GraphActivity,
  type GraphAd,
  type GraphAdAccount,
  type InsightsRow,
  type MetaClient,
} from '@adpilot/meta';
import type { SecretBox } from '../../lib/crypto.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AdAccountsRepository, EntityInput, EntityLevel, InsightInput } from './ad-accounts.repository.ts';
import { diffMirror, externalChanges, recordExternalChanges, type OwnWrites } from './external-changes.ts';
import type { ExternalChangesRepository, MirrorValue } from './external-changes.repository.ts';
import { firstSyncDays, nextChunk } from './history-backfill.ts';
import { rollUp } from './insights-rollup.ts';
import type { SignalsService } from './signals.service.ts';
import { SyncState } from './sync-state.ts';

/**
 * The first sync reads 90 days (or the account's shorter history setting; a longer one is the backfill job's, ADR
 * 0103); later ones refresh the days Meta still revises: conversions are attributed up to 7 days after the click
 * (the default window) and arrive late, so two weeks (ADR 0012; bench/meta-refresh-window: 9 Graph calls for a
 * 500-ad account instead of 3). An account synced before the history was recorded reads its first sync's days once.
 */
export const REFRESH_DAYS = 14;

export interface SyncResult {
  status: 'synced' | 'skipped' | 'reauth' | 'failed';
  entities?: number;
  insightRows?: number;
  /** The history setting asks for older days than the mirror holds: the backfill job's work. */
  backfillDue?: boolean;
}

export interface AdAccountSyncDeps {
  transactions: Transactions;
  repository: AdAccountsRepository;
  activity: ActivityRepository;
  /** The client of the Meta app configured now (asked at each use). */
  metaClient: () => MetaClient;
  secretBox: SecretBox;
  /** The watchdog's reads and marks on the mirror (ADR 0076). */
  externalChanges: ExternalChangesRepository;
  /** AdPilot's own writes (the rules' ledger): a change found by a sync that is in it is not external. */
  ownWrites: OwnWrites;
  /** The monthly budgets' pacing and the anomaly watch, judged on each landed sync (ADR 0124, 0125). */
  signals?: Pick<SignalsService, 'watch'>;
  now: () => Date;
}

/** How far before the last sync the ledger and Meta's history are read: a write may land while a sync runs. */
const WATCH_MARGIN_MS = 60 * 60_000;

const toDate = (value: string | undefined) => (value ? new Date(value) : null);
const toBudget = (value: string | number | undefined | null) =>
  value === undefined || value === null || value === '' ? null : Number(value);

/** What one sync read from Meta, written in one unit of work. */
interface Pulled {
  info: GraphAdAccount;
  entities: EntityInput[];
  insights: { level: EntityLevel; rows: InsightInput[] }[];
  startedAt: Date;
  insightRows: number;
  /** The first day the insights were read from. */
  since: string;
  until: string;
}

/**
 * One account's sync: entities and daily insights into our mirror, idempotently. A handful of Graph calls per
 * account whatever its size: entities paged at the maximum page size, insights at level=ad with time_increment=1.
 * Everything is read from Meta first and then written in one transaction, so a sync lands whole or not at all,
 * and no transaction waits on the network.
 */
export class AdAccountSyncService {
  private readonly state: SyncState;

  constructor(private readonly deps: AdAccountSyncDeps) {
    this.state = new SyncState(deps.repository);
  }

  /**
   * Claims the refresh of an account whose mirror is older than `staleBefore` (a rule about to judge it): one
   * claimant at a time, whatever the process, through the account's sync state; a sync already running is waited
   * for, not repeated. The claimant then runs `sync`, which records the result.
   */
  claimRefresh(scope: TenantScope, adAccountId: string, staleBefore: Date, at: Date): Promise<boolean> {
    return this.deps.transactions.tenant(scope, (tx) => this.state.claim(tx, adAccountId, staleBefore, at));
  }

  /**
   * Every tenant's syncs that stopped reporting (a `queued` or `syncing` state untouched for an hour belongs to a
   * job that expired or a worker that died) become an error the user can read, so "Sync now" works again. In the
   * caller's unit of work on the system path (the maintenance run).
   */
  recoverStaleSyncs(tx: SystemTx, now: Date): Promise<number> {
    return this.state.recover(tx, now);
  }

  async sync(scope: TenantScope, adAccountId: string, attempt: { final: boolean }): Promise<SyncResult> {
    const { repository, transactions } = this.deps;
    const started = await transactions.tenant(scope, async (tx) => {
      const found = await repository.find(tx, adAccountId);
      if (!found || found.needsReauth) return undefined;
      await this.state.start(tx, adAccountId);
      const mirror = found.lastSync ? await this.deps.externalChanges.mirrorValues(tx, adAccountId) : [];
      return { found, mirror };
    });
    if (!started) return { status: 'skipped' };
    const account = started.found;
    try {
      const pulled = await this.pull(account);
      const history = await this.historyIfChanged(account, started.mirror, pulled);
      // The workspace's own job lands it: an external change found here is nobody's in AdPilot, whoever asked.
      await transactions.tenant(workspaceJob(account.workspaceId), async (tx) => {
        await this.watch(tx, account, pulled, history);
        await repository.replaceEntities(tx, adAccountId, pulled.entities, pulled.startedAt);
        await repository.upsertInsights(tx, adAccountId, pulled.insights);
        await this.deps.signals?.watch(
          tx,
          {
            ...account,
            facebookAccountName: pulled.info.name,
            currency: pulled.info.currency,
            timezone: pulled.info.timezone_name,
          },
          this.deps.now(),
        );
        await this.state.land(
          tx,
          adAccountId,
          {
            facebookAccountName: pulled.info.name,
            metaAccountStatus: pulled.info.account_status,
            disableReason: pulled.info.disable_reason ?? null,
            currency: pulled.info.currency,
            timezone: pulled.info.timezone_name,
            // Kept as known when Meta leaves the field out of an answer (a missing field is not a minimum of 0).
            ...(pulled.info.min_daily_budget !== undefined ? { minDailyBudget: pulled.info.min_daily_budget } : {}),
            ...(account.historyFrom === null ? { historyFrom: pulled.since } : {}),
          },
          this.deps.now(),
        );
      });
      const historyFrom = account.historyFrom ?? pulled.since;
      return {
        status: 'synced',
        entities: pulled.entities.length,
        insightRows: pulled.insightRows,
        backfillDue: nextChunk(historyFrom, pulled.until, account.backfillDays) !== null,
      };
    } catch (error) {
      return this.fail(account, error, attempt.final);
    }
  }

  /**
   * Meta's activity history since shortly before the last sync, read only when Meta's statuses or budgets differ
   * from the mirror. Unreadable history (a permission, a limit) only means the change cannot be attributed.
   */
  private async historyIfChanged(account: AdAccountRow, mirror: readonly MirrorValue[], pulled: Pulled) {
    if (!account.lastSync || diffMirror(mirror, pulled.entities).length === 0) return [];
    try {
      const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
      return await this.deps.metaClient().listActivities(token, `act_${account.facebookAccountId}`, {
        since: new Date(account.lastSync.getTime() - WATCH_MARGIN_MS),
      });
    } catch (error) {
      if (error instanceof MetaApiError && !(error instanceof MetaTokenExpiredError)) return [];
      throw error;
    }
  }

  /**
   * Compares Meta's statuses and budgets with the mirror (read again here, in the landing's unit of work) and the
   * rules' ledger; a change AdPilot did not make is logged and marked on the entity for the rules' safeguard.
   */
  private async watch(tx: TenantTx, account: AdAccountRow, pulled: Pulled, history: GraphActivity[]): Promise<void> {
    if (!account.lastSync) return;
    const changes = diffMirror(await this.deps.externalChanges.mirrorValues(tx, account.id), pulled.entities);
    if (changes.length === 0) return;
    const since = new Date(account.lastSync.getTime() - WATCH_MARGIN_MS);
    const writes = await this.deps.ownWrites.ownWritesIn(tx, account.id, since);
    const appId = this.deps.metaClient().appId;
    const found = externalChanges(changes, writes, history, appId, pulled.startedAt);
    if (found.length === 0) return;
    const marks = await recordExternalChanges(this.deps.activity, tx, account, found);
    await this.deps.externalChanges.mark(tx, account.id, marks);
  }

  private async pull(account: AdAccountRow): Promise<Pulled> {
    const meta = this.deps.metaClient();
    const token = this.deps.secretBox.decrypt(account.accessTokenEnc);
    const actId = `act_${account.facebookAccountId}`;
    const startedAt = this.deps.now();

    const info = await meta.getAdAccount(token, actId);
    const [campaigns, adsets, ads] = await Promise.all([
      meta.listCampaigns(token, actId),
      meta.listAdSets(token, actId),
      meta.listAds(token, actId),
    ]);
    const entities: EntityInput[] = [
      ...campaigns.map((c) => ({
        level: 'campaign' as const,
        externalId: c.id,
        name: c.name,
        status: c.status,
        effectiveStatus: c.effective_status,
        campaignExternalId: c.id,
        adsetExternalId: null,
        dailyBudget: toBudget(c.daily_budget),
        lifetimeBudget: toBudget(c.lifetime_budget),
        learningStatus: null,
        createdTime: toDate(c.created_time),
        updatedTime: toDate(c.updated_time),
      })),
      ...adsets.map((s) => ({
        level: 'adset' as const,
        externalId: s.id,
        name: s.name,
        status: s.status,
        effectiveStatus: s.effective_status,
        campaignExternalId: s.campaign_id,
        adsetExternalId: s.id,
        dailyBudget: toBudget(s.daily_budget),
        lifetimeBudget: toBudget(s.lifetime_budget),
        learningStatus: s.learning_stage_info?.status ?? null,
        createdTime: toDate(s.created_time),
        updatedTime: toDate(s.updated_time),
      })),
      ...ads.map((a) => ({
        level: 'ad' as const,
        externalId: a.id,
        name: a.name,
        status: a.status,
        effectiveStatus: a.effective_status,
        campaignExternalId: a.campaign_id,
        adsetExternalId: a.adset_id,
        dailyBudget: null,
        lifetimeBudget: null,
        learningStatus: null,
        createdTime: toDate(a.created_time),
        updatedTime: toDate(a.updated_time),
      })),
    ];

    const until = localDate(info.timezone_name ?? account.timezone, startedAt.getTime());
    const since = addDays(until, -(account.historyFrom ? REFRESH_DAYS : firstSyncDays(account.backfillDays) - 1));
    const rows = await meta.getInsights(token, actId, { level: 'ad', timeRange: { since, until }, timeIncrement: 1 });
    const insights = insightLevels(rows, ads);
    return { info, entities, insights, startedAt, insightRows: rows.length, since, until };
  }

  private async fail(account: AdAccountRow, error: unknown, final: boolean): Promise<SyncResult> {
    const { activity, transactions } = this.deps;
    const metaError =
      error instanceof MetaApiError
        ? { code: error.code, subcode: error.subcode ?? null, fbtraceId: error.fbtraceId ?? null }
        : null;
    if (error instanceof MetaTokenExpiredError) {
      await transactions.tenant(workspaceJob(account.workspaceId), async (tx) => {
        await this.state.accessExpired(tx, account.id);
        const params = { accountName: account.facebookAccountName };
        await activity.insert(tx, {
          level: 'error',
          category: 'sync',
          description: describeActivity('sync_access_expired', params),
          adAccountId: account.id,
          metadata: { code: 'sync_access_expired', params, metaError },
        });
      });
      return { status: 'reauth' };
    }
    const reason = syncErrorCode(error);
    // Transient failures are retried by the queue; only the last attempt is reported to the user.
    const retrying =
      !final && (!(error instanceof MetaApiError) || error.isTransient || error instanceof MetaRateLimitError);
    await transactions.tenant(workspaceJob(account.workspaceId), async (tx) => {
      await this.state.fail(tx, account.id, reason, retrying);
      if (retrying) return;
      // Meta's own text (English, from Meta) is kept as a parameter: shown as a detail, never as our sentence.
      const params = {
        accountName: account.facebookAccountName,
        reason,
        detail: error instanceof MetaApiError ? error.message : null,
      };
      await activity.insert(tx, {
        level: 'error',
        category: 'sync',
        description: describeActivity('sync_failed', params),
        adAccountId: account.id,
        metadata: { code: 'sync_failed', params, metaError },
      });
    });
    if (retrying) throw error;
    return { status: 'failed' };
  }
}

/** The code stored for a failed sync (`ad_accounts.last_sync_error`); the web words it in the user's language. */
export function syncErrorCode(error: unknown): SyncErrorCode {
  if (error instanceof MetaTokenExpiredError) return 'access_expired';
  if (error instanceof MetaRateLimitError) return 'meta_rate_limited';
  if (error instanceof MetaPermissionError) return 'meta_permission';
  if (error instanceof MetaApiError) return error.isTransient ? 'meta_unavailable' : 'meta_error';
  return 'unexpected';
}

/** Meta's ad-level days as the mirror's rows of each level: the ad sets' and campaigns' summed from the ads'. */
export function insightLevels(
  rows: readonly InsightsRow[],
  ads: readonly GraphAd[],
): { level: EntityLevel; rows: InsightInput[] }[] {
  const adRows = rows.map(toInsightInput).filter((row): row is InsightInput => row !== null);
  const adParents = new Map(ads.map((ad) => [ad.id, ad]));
  return [
    { level: 'ad', rows: adRows },
    { level: 'adset', rows: rollUp(adRows, (id) => adParents.get(id)?.adset_id) },
    { level: 'campaign', rows: rollUp(adRows, (id) => adParents.get(id)?.campaign_id) },
  ];
}

function toInsightInput(row: InsightsRow): InsightInput | null {
  const entityExternalId = row.ad_id;
  if (!entityExternalId || !row.date_start) return null;
  return {
    entityExternalId,
    date: row.date_start,
    spend: row.spend ?? 0,
    impressions: row.impressions ?? 0,
    reach: row.reach ?? 0,
    clicks: row.clicks ?? 0,
    linkClicks: row.linkClicks ?? 0,
    conversions: row.conversions ?? 0,
    conversionValue: row.conversionValue ?? 0,
  };
}
