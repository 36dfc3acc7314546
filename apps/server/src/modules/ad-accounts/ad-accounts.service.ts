import { workspaceJob } from '../../lib/scope.ts';
import {
  AD_ACCOUNT_MESSAGES,
  type AdAccount,
  type AdAccountDetail,
  type AdAccountStats,
  addDays,
  addTotals,
  type DailyTotals,
  type DeliveryTotals,
  derivedMetrics,
  describeActivity,
  emptyTotals,
  type LeftOutAccount,
  localDate,
  META_WRITE_SCOPE,
  type MetricTotals,
  OAUTH_STATE_TTL_SECONDS,
  type PlanId,
  SUBSCRIPTION_MESSAGES,
  type UpdateAdAccountRequest,
} from '@adpilot/contracts';
import type { AdAccountRow, SystemTx, TenantTx, Transactions, TenantScope } from '@adpilot/db';
import { MetaApiError, type GraphAdAccount, type MetaClient } from '@adpilot/meta';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken, type SecretBox } from '../../lib/crypto.ts';
import type { ActivityRepository } from '../activity/index.ts';
import { presentAdAccount, type AccountEditor, type PresenterOptions } from './ad-accounts.presenter.ts';
import type { AdAccountsRepository, NewAdAccount } from './ad-accounts.repository.ts';
import { nextChunk } from './history-backfill.ts';
import { SyncState } from './sync-state.ts';

/** The permissions the spec's consent text promises: read accounts and insights, pause/resume, budgets and bids. */
export const META_SCOPES = ['ads_read', 'ads_management', 'business_management'];

/**
 * How many ad accounts the user's plan allows (Infinity: unlimited) and which plan that is (named in a refusal), read
 * in the connection's unit of work.
 */
export interface AdAccountQuota {
  /** `room`: how many this workspace may hold (a pooled limit less the plan's other workspaces'; ADR 0110). */
  adAccountLimitIn(tx: TenantTx): Promise<{ plan: PlanId; limit: number; room?: number }>;
}

/** What a connection did: the accounts stored, and those the plan had no room for. */
export interface ConnectionResult {
  connectedAccounts: AdAccount[];
  leftOutAccounts: LeftOutAccount[];
  /** -1: unlimited. */
  adAccountLimit: number;
}

/** The rules' part in a disconnection (the rules service): the rules stop naming the account; answers those switched off. */
export interface AccountRules {
  forgetAdAccount(tx: TenantTx, adAccountId: string): Promise<{ name: string }[]>;
}

export interface SyncScheduler {
  enqueueSync(workspaceId: string, adAccountId: string, reason: 'connect' | 'manual' | 'schedule'): Promise<boolean>;
  /**
   * Asks for the account's history backfill (ADR 0103): one queued and one running per account. A scheduler without
   * it (a test's stand-in for the queue) backfills nothing.
   */
  enqueueBackfill?(workspaceId: string, adAccountId: string): Promise<boolean>;
}

export interface AdAccountsServiceDeps {
  transactions: Transactions;
  repository: AdAccountsRepository;
  activity: ActivityRepository;
  /** The client of the Meta app configured now (asked at each use). */
  metaClient: () => MetaClient;
  secretBox: SecretBox;
  scheduler: SyncScheduler;
  quota: AdAccountQuota;
  rules: AccountRules;
  /** Whether a connection made now goes to the built-in sandbox (Settings may switch to a live app at any time). */
  isSandbox: () => boolean;
  /**
   * The signed hint that sends a workspace's sandbox connection to its own sandbox world (undefined: the live app,
   * or the shared default world), so no workspace sees or changes another's sandbox accounts.
   */
  sandboxWorldHint?: (workspaceId: string) => string | undefined;
  /** With worlds in use: whether a connected account is of the workspace's own sandbox world. */
  sandboxWorldOwns?: (workspaceId: string, facebookAccountId: string) => boolean;
  /** The address Meta sends the user back to: the SPA's /ad-accounts page, which posts code + state to us. */
  redirectUri: string;
  presenter: PresenterOptions;
  now: () => Date;
}

function totalsOf(days: DailyTotals[]): MetricTotals {
  return metricTotals(days.reduce((total, day) => addTotals(total, day), emptyTotals()));
}

/** Four decimals are plenty for a ratio shown to people; undefined stays null. */
const rounded = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

function metricTotals(day: DeliveryTotals): MetricTotals {
  return {
    spend: Math.round(day.spend * 100) / 100,
    impressions: day.impressions,
    reach: day.reach,
    clicks: day.clicks,
    link_clicks: day.linkClicks,
    conversions: day.conversions,
    conversion_value: Math.round(day.conversionValue * 100) / 100,
    ctr: rounded(derivedMetrics.ctr(day)),
    cpc: rounded(derivedMetrics.cpc(day)),
    cpm: rounded(derivedMetrics.cpm(day)),
    cpa: rounded(derivedMetrics.cpa(day)),
    roas: rounded(derivedMetrics.roas(day)),
  };
}

export class AdAccountsService {
  private readonly syncState: SyncState;

  constructor(private readonly deps: AdAccountsServiceDeps) {
    this.syncState = new SyncState(deps.repository);
  }

  /** How many accounts the user has connected, in the caller's unit of work (the subscription's usage). */
  countIn(tx: TenantTx): Promise<number> {
    return this.deps.repository.count(tx);
  }

  /** How many ad accounts each of these workspaces holds (a plan's pooled usage, ADR 0110). */
  countAcross(tx: SystemTx, workspaceIds: readonly string[]): Promise<Map<string, number>> {
    return this.deps.repository.countAcross(tx, workspaceIds);
  }

  /** Every tenant's OAuth states that can no longer be used, in the caller's unit of work (the maintenance run). */
  purgeSpentOAuthStates(tx: SystemTx, now: Date): Promise<number> {
    return this.deps.repository.purgeSpentOAuthStates(tx, now);
  }

  /**
   * The accounts as `scope`'s member sees them; `editing`: whether they may edit them (the sandbox's Ads Manager link
   * is theirs alone). The routes that change an account are an editor's, so what they answer is presented as such.
   */
  private presentFor(scope: TenantScope, editing: boolean): (row: AdAccountRow) => AdAccount {
    const editor: AccountEditor | null =
      editing && scope.userId ? { workspaceId: scope.workspaceId, userId: scope.userId } : null;
    return (row) => presentAdAccount(row, this.deps.presenter, editor, this.deps.now());
  }

  private tenant<T>(scope: TenantScope, work: (tx: TenantTx) => Promise<T>): Promise<T> {
    return this.deps.transactions.tenant(scope, work);
  }

  private async owned(tx: TenantTx, id: string): Promise<AdAccountRow> {
    const row = await this.deps.repository.find(tx, id);
    // Another tenant's id answers exactly like an id that does not exist.
    if (!row) throw AppError.notFound('Ad account not found');
    return row;
  }

  async list(scope: TenantScope, editing = false): Promise<AdAccount[]> {
    return (await this.tenant(scope, (tx) => this.deps.repository.list(tx))).map(this.presentFor(scope, editing));
  }

  async detail(scope: TenantScope, id: string, editing = false): Promise<AdAccountDetail> {
    return this.tenant(scope, async (tx) => {
      const row = await this.owned(tx, id);
      const counts = { campaigns: 0, adsets: 0, ads: 0 };
      for (const { level, n } of await this.deps.repository.entityCounts(tx, id)) {
        if (level === 'campaign') counts.campaigns = n;
        else if (level === 'adset') counts.adsets = n;
        else counts.ads = n;
      }
      return { ...this.presentFor(scope, editing)(row), counts };
    });
  }

  async update(scope: TenantScope, id: string, patch: UpdateAdAccountRequest): Promise<AdAccount> {
    const row = await this.tenant(scope, async (tx) => {
      await this.owned(tx, id);
      return this.deps.repository.update(tx, id, {
        ...(patch.facebook_account_name !== undefined ? { facebookAccountName: patch.facebook_account_name } : {}),
        ...(patch.auto_sync !== undefined ? { autoSync: patch.auto_sync } : {}),
        ...(patch.anomaly_sensitivity !== undefined ? { anomalySensitivity: patch.anomaly_sensitivity } : {}),
        ...(patch.backfill_days !== undefined ? { backfillDays: patch.backfill_days } : {}),
      });
    });
    if (!row) throw AppError.notFound('Ad account not found');
    // A longer history is fetched by its job, after the commit (a worker reads the new setting).
    const today = localDate(row.timezone, this.deps.now().getTime());
    if (patch.backfill_days !== undefined && nextChunk(row.historyFrom, today, row.backfillDays)) {
      await this.deps.scheduler.enqueueBackfill?.(scope.workspaceId, id);
      return this.presentFor(scope, true)(await this.reread(row));
    }
    return this.presentFor(scope, true)(row);
  }

  /**
   * The account goes, the rules stop naming it, and the log says so in one unit of work: all or nothing. The
   * entry names the rules switched off because the account was the only one they named.
   */
  async disconnect(scope: TenantScope, id: string): Promise<void> {
    await this.tenant(scope, async (tx) => {
      const row = await this.owned(tx, id);
      const switchedOff = await this.deps.rules.forgetAdAccount(tx, id);
      await this.deps.repository.delete(tx, id);
      const params = { accountName: row.facebookAccountName, accountId: row.facebookAccountId };
      const rules = switchedOff.map((rule) => rule.name);
      await this.deps.activity.insert(tx, {
        level: switchedOff.length > 0 ? 'warning' : 'info',
        category: 'connection',
        description: describeActivity('account_disconnected', {
          ...params,
          ...(rules.length > 0 ? { rules: rules.join(', ') } : {}),
        }),
        metadata: {
          code: 'account_disconnected',
          params: { ...params, ...(rules.length > 0 ? { rules } : {}) },
          facebookAccountId: row.facebookAccountId,
        },
      });
    });
  }

  async requestSync(scope: TenantScope, id: string): Promise<{ queued: boolean; account: AdAccount }> {
    const row = await this.tenant(scope, async (tx) => {
      const found = await this.owned(tx, id);
      if (found.needsReauth) throw new AppError('META_REAUTH_REQUIRED', AD_ACCOUNT_MESSAGES.reauthRequired, 409);
      return (await this.markQueued(tx, found)) ?? found;
    });
    const queued = await this.deps.scheduler.enqueueSync(scope.workspaceId, id, 'manual');
    return { queued, account: this.presentFor(scope, true)(await this.reread(row)) };
  }

  /**
   * Marks the account queued; the caller enqueues after the commit, because a worker may finish the sync before
   * `send` returns, and its "idle" must not be overwritten. A sync already queued absorbs a second request.
   */
  private markQueued(tx: TenantTx, row: AdAccountRow): Promise<AdAccountRow | undefined> {
    return this.syncState.queue(tx, row);
  }

  private async reread(row: AdAccountRow): Promise<AdAccountRow> {
    return (await this.tenant(workspaceJob(row.workspaceId), (tx) => this.deps.repository.find(tx, row.id))) ?? row;
  }

  async stats(
    scope: TenantScope,
    id: string,
    query: { start_date?: string; end_date?: string },
  ): Promise<AdAccountStats> {
    const { row, start, end, days } = await this.tenant(scope, async (tx) => {
      const row = await this.owned(tx, id);
      const today = localDate(row.timezone, this.deps.now().getTime());
      const end = query.end_date ?? today;
      const start = query.start_date ?? addDays(end, -29);
      if (addDays(start, 366) < end)
        throw AppError.badRequest('The date range may span at most 366 days', 'VALIDATION_ERROR');
      return { row, start, end, days: await this.deps.repository.dailyTotals(tx, id, start, end) };
    });
    return {
      ad_account_id: id,
      currency: row.currency,
      start_date: start,
      end_date: end,
      totals: totalsOf(days),
      daily: days.map(({ date, ...day }) => ({ date, ...metricTotals(day) })),
    };
  }

  /**
   * The account and its token for a change in Meta (pause, resume, budget). A read-only account (ads_management not
   * granted) is refused here with a clear 403 instead of failing later at Meta with a permission error.
   */
  async writableAccount(scope: TenantScope, id: string): Promise<{ account: AdAccountRow; accessToken: string }> {
    const account = await this.tenant(scope, (tx) => this.owned(tx, id));
    if (account.missingScopes.includes(META_WRITE_SCOPE)) {
      throw new AppError('AD_ACCOUNT_READ_ONLY', AD_ACCOUNT_MESSAGES.readOnly, 403);
    }
    if (account.needsReauth) throw new AppError('META_REAUTH_REQUIRED', AD_ACCOUNT_MESSAGES.reauthRequired, 409);
    return { account, accessToken: this.deps.secretBox.decrypt(account.accessTokenEnc) };
  }

  /** Step 1 of the connect flow: a single-use state bound to this user, and Meta's consent address. */
  async createAuthUrl(scope: TenantScope): Promise<string> {
    const state = randomToken(24);
    const now = this.deps.now();
    await this.tenant(scope, (tx) =>
      this.deps.repository.createOAuthState(tx, {
        stateHash: hashToken(state),
        provider: 'meta',
        redirectUri: this.deps.redirectUri,
        expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_SECONDS * 1000),
      }),
    );
    const url = this.deps.metaClient().getDialogUrl({ redirectUri: this.deps.redirectUri, state, scopes: META_SCOPES });
    const hint = this.deps.sandboxWorldHint?.(scope.workspaceId);
    if (!hint) return url;
    const withWorld = new URL(url);
    withWorld.searchParams.set('sandbox_world', hint);
    return withWorld.toString();
  }

  /** Step 2: the return from Meta. The state must be ours, this user's, fresh and unused. */
  async completeConnection(scope: TenantScope, code: string, state: string): Promise<ConnectionResult> {
    const issued = await this.tenant(scope, (tx) =>
      this.deps.repository.consumeOAuthState(tx, hashToken(state), this.deps.now()),
    );
    if (!issued) throw AppError.badRequest(AD_ACCOUNT_MESSAGES.stateInvalid, 'INVALID_STATE');

    let accessToken: string;
    let expiresIn: number | undefined;
    let graphAccounts: GraphAdAccount[];
    let missingScopes: string[];
    let tokenExpiresAt: Date | null | undefined;
    try {
      const short = await this.deps.metaClient().exchangeCode({ code, redirectUri: issued.redirectUri });
      const long = await this.deps.metaClient().exchangeLongLivedToken(short.accessToken);
      accessToken = long.accessToken;
      expiresIn = long.expiresIn;
      // The user may untick permissions on the consent screen: read what was really granted, and until when.
      const inspected = await this.deps.metaClient().inspectToken(accessToken);
      tokenExpiresAt = inspected.expiresAt;
      missingScopes = missingScopesOf(inspected.scopes);
      graphAccounts = await this.deps.metaClient().listAdAccounts(accessToken);
    } catch (error) {
      if (error instanceof MetaApiError) {
        throw new AppError('META_ERROR', `Facebook refused the connection: ${error.message}`, 502);
      }
      throw error;
    }

    return this.connectWith(scope, {
      accessToken,
      graphAccounts,
      missingScopes,
      tokenExpiresAt,
      expiresIn,
      tokenKind: 'user',
    });
  }

  /**
   * Connects the accounts a Business Manager system user's token reaches (an agency's accounts, ADR 0190): the token
   * is pasted by an admin, checked with debug_token (it must be a valid SYSTEM_USER token of this app with ads_read
   * or ads_management) and sealed like a person's. A never-expiring one has no end; a 60-day one counts down.
   */
  async connectSystemUser(scope: TenantScope, token: string): Promise<ConnectionResult> {
    let graphAccounts: GraphAdAccount[];
    let missingScopes: string[];
    let tokenExpiresAt: Date | null | undefined;
    try {
      const inspected = await this.deps.metaClient().inspectToken(token);
      if (!inspected.isValid)
        throw AppError.badRequest(AD_ACCOUNT_MESSAGES.systemUserTokenInvalid, 'META_TOKEN_INVALID');
      if (inspected.type !== 'SYSTEM_USER') {
        throw AppError.badRequest(AD_ACCOUNT_MESSAGES.notSystemUserToken, 'META_TOKEN_NOT_SYSTEM_USER');
      }
      tokenExpiresAt = inspected.expiresAt;
      missingScopes = missingScopesOf(inspected.scopes);
      graphAccounts = await this.deps.metaClient().listAdAccounts(token);
    } catch (error) {
      // Meta's message never carries the token; ours never repeats it.
      if (error instanceof MetaApiError) {
        throw new AppError('META_ERROR', `Facebook refused the token: ${error.message}`, 502);
      }
      throw error;
    }
    return this.connectWith(scope, {
      accessToken: token,
      graphAccounts,
      missingScopes,
      tokenExpiresAt: tokenExpiresAt ?? null,
      expiresIn: undefined,
      tokenKind: 'system_user',
    });
  }

  /** What both ways of connecting share: the accounts stored with the sealed token, their log entries, their syncs. */
  private async connectWith(
    scope: TenantScope,
    input: {
      accessToken: string;
      graphAccounts: GraphAdAccount[];
      missingScopes: string[];
      tokenExpiresAt: Date | null | undefined;
      expiresIn: number | undefined;
      tokenKind: 'user' | 'system_user';
    },
  ): Promise<ConnectionResult> {
    const { accessToken, graphAccounts, missingScopes, expiresIn, tokenKind } = input;
    let { tokenExpiresAt } = input;
    // A consent given in another sandbox world (its hint removed or swapped on the way) connects nothing here.
    const owns = this.deps.sandboxWorldOwns;
    if (owns && graphAccounts.some((account) => !owns(scope.workspaceId, account.account_id))) {
      throw AppError.badRequest(AD_ACCOUNT_MESSAGES.sandboxWorldMismatch, 'INVALID_STATE');
    }

    const sealed = this.deps.secretBox.encrypt(accessToken);
    // debug_token's expiry is the token's own; the exchange's expires_in is the fallback when it gives none.
    if (tokenExpiresAt === undefined)
      tokenExpiresAt = expiresIn ? new Date(this.deps.now().getTime() + expiresIn * 1000) : null;
    // The accounts, their queued state and the log entries commit together; the syncs are enqueued after.
    const { rows, leftOut, limit } = await this.tenant(scope, async (tx) => {
      await this.deps.repository.lockConnections(tx);
      const stored = await this.deps.repository.list(tx);
      const existing = new Set(stored.map((row) => row.facebookAccountId));
      const { plan, limit, room: share } = await this.deps.quota.adAccountLimitIn(tx);
      // Accounts already connected are reconnected whatever the plan; new ones fill the room left, in Meta's order.
      const room = Math.max(0, (share ?? limit) - stored.length);
      const fresh = graphAccounts.filter((account) => !existing.has(account.account_id));
      const admitted = new Set(fresh.slice(0, room).map((account) => account.account_id));
      const kept = graphAccounts.filter(
        (account) => existing.has(account.account_id) || admitted.has(account.account_id),
      );
      const leftOut = fresh.filter((account) => !admitted.has(account.account_id));
      if (kept.length === 0 && leftOut.length > 0) {
        throw new AppError(
          'AD_ACCOUNT_LIMIT_REACHED',
          SUBSCRIPTION_MESSAGES.adAccountLimit,
          403,
          undefined,
          undefined,
          {
            plan,
            limit,
          },
        );
      }
      const upserted = await this.deps.repository.upsertConnected(
        tx,
        kept.map((account): NewAdAccount => ({
          facebookAccountId: account.account_id,
          facebookAccountName: account.name,
          metaAccountStatus: account.account_status,
          disableReason: account.disable_reason ?? null,
          currency: account.currency,
          timezone: account.timezone_name,
          minDailyBudget: account.min_daily_budget ?? null,
          accessTokenEnc: sealed,
          tokenExpiresAt,
          tokenKind,
          isSandbox: this.deps.isSandbox(),
          missingScopes,
        })),
      );
      for (const row of upserted) {
        await this.markQueued(tx, row);
        const params = { accountName: row.facebookAccountName, accountId: row.facebookAccountId };
        await this.deps.activity.insert(tx, {
          level: 'success',
          category: 'connection',
          description: describeActivity('account_connected', params),
          adAccountId: row.id,
          metadata: {
            code: 'account_connected',
            params,
            facebookAccountId: row.facebookAccountId,
            currency: row.currency,
            timezone: row.timezone,
            missingScopes: row.missingScopes,
          },
        });
      }
      return { rows: upserted, leftOut, limit };
    });
    const connected: AdAccountRow[] = [];
    for (const row of rows) {
      await this.deps.scheduler.enqueueSync(scope.workspaceId, row.id, 'connect');
      connected.push(await this.reread(row));
    }
    return {
      connectedAccounts: connected.map(this.presentFor(scope, true)),
      leftOutAccounts: leftOut.map((account) => ({
        facebook_account_id: account.account_id,
        facebook_account_name: account.name,
      })),
      adAccountLimit: Number.isFinite(limit) ? limit : -1,
    };
  }
}

/** The scopes a token lacks of those AdPilot asks for; refused when it can neither read nor manage ads. */
function missingScopesOf(granted: readonly string[]): string[] {
  if (!granted.includes('ads_read') && !granted.includes(META_WRITE_SCOPE)) {
    throw new AppError('META_PERMISSION_MISSING', AD_ACCOUNT_MESSAGES.noAdsPermission, 403);
  }
  return META_SCOPES.filter((scope) => !granted.includes(scope));
}
