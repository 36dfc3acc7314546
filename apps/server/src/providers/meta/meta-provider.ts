import { join } from 'node:path';
import { MetaClient, type MetaClientOptions, type MetaObserver } from '@adpilot/meta';
import { createSandbox, isAccountOfWorld, type Sandbox } from '@adpilot/meta-sandbox';
import type { Config } from '../../config/env.ts';
import type { SettingsReader } from '../../config/runtime-settings.ts';
import { resolveSandboxSecret } from './sandbox-secret.ts';

export const SANDBOX_PREFIX = '/sandbox/meta';
export const ADS_MANAGER_URL = 'https://adsmanager.facebook.com/adsmanager/manage/campaigns';

/** Where Meta's consent dialog sends the user back to: the SPA's /ad-accounts page, which posts code + state to us. */
export function connectionRedirectUri(publicUrl: string): string {
  return `${publicUrl}/ad-accounts`;
}

/** Whom a sandbox Ads Manager link is for: a member of the workspace whose account it opens. */
export interface AdsManagerHolder {
  workspaceId: string;
  userId: string;
}

/** The holder as the sandbox signs it into a link (opaque to the sandbox). */
export function adsManagerHolderText(holder: AdsManagerHolder): string {
  return `${holder.workspaceId}.${holder.userId}`;
}

/** The holder a signed link names, as the server checks it at each use; undefined for any other text. */
export function readAdsManagerHolder(text: string): AdsManagerHolder | undefined {
  const [workspaceId, userId, ...rest] = text.split('.');
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (rest.length > 0 || !workspaceId || !userId || !uuid.test(workspaceId) || !uuid.test(userId)) return undefined;
  return { workspaceId, userId };
}

/** Ads Manager's page of a live account. */
export function liveAdsManagerUrl(facebookAccountId: string): string {
  return `${ADS_MANAGER_URL}?act=${encodeURIComponent(facebookAccountId)}`;
}

export interface MetaProvider {
  /**
   * The client of the Meta app configured now: the live app once Settings or the environment name one. Services ask
   * for it at each use, so saving a Meta app in Settings applies without a restart.
   */
  client(): MetaClient;
  /** Present unless the environment pins a live app: the simulator the server mounts under /sandbox/meta. */
  sandbox?: Sandbox;
  /** Whether new connections go to the sandbox (stored per ad account). */
  isSandbox(): boolean;
  /**
   * Where "View in Facebook" leads for an account: Ads Manager, or for a sandbox account the sandbox's own page by
   * a link it signs for `holder` (only the holder of such a link opens an account's page there, and only while they
   * may still edit: the sandbox asks at each use). A sandbox account has no link for nobody (null).
   */
  adsManagerUrl(facebookAccountId: string, isSandbox: boolean, holder: AdsManagerHolder | null): string | null;
  /**
   * While new connections go to the sandbox: the `sandbox_world` hint that gives workspace `workspaceId` its own
   * sandbox world (its key signed with the app secret the app and the sandbox share); undefined otherwise.
   */
  sandboxWorldHint?(workspaceId: string): string | undefined;
  /**
   * With worlds in use: whether an ad account a connection returned belongs to the workspace's own world (false for
   * the default world's or another workspace's, reached by a dialog address whose hint was removed or swapped).
   */
  sandboxWorldOwns?(workspaceId: string, facebookAccountId: string): boolean;
  /** Asks for the configured app's access token once, without retries (Settings' connection test). */
  verifyApp(timeoutMs: number): Promise<void>;
}

/**
 * Meta, or the built-in sandbox while no app id is configured. The app id and secret come from the settings seam
 * (environment first, then Settings), read at every call, so saving them applies at once; the client is the same
 * either way, only its base addresses and credentials differ. The server reaches its own sandbox over loopback, the
 * browser through the public address. When the environment pins a live app no sandbox is created at all. Every
 * client made here tells `observer` of its calls (the metrics).
 */
export function createMetaProvider(config: Config, settings: SettingsReader, observer?: MetaObserver): MetaProvider {
  const watched = observer ? { observer } : {};
  const liveOptions = (appId: string, appSecret: string): MetaClientOptions => ({
    graphBaseUrl: config.meta.graphUrl,
    dialogBaseUrl: config.meta.dialogUrl,
    version: config.meta.version,
    appId,
    appSecret,
    ...watched,
  });
  let cachedLive: { key: string; client: MetaClient } | undefined;
  const liveClient = (options: MetaClientOptions) => {
    const key = `${options.appId}:${options.appSecret ?? ''}`;
    if (cachedLive?.key !== key) cachedLive = { key, client: new MetaClient(options) };
    return cachedLive.client;
  };
  const verify = (options: MetaClientOptions, timeoutMs: number) =>
    new MetaClient({ ...options, maxRetries: 0, maxRateLimitRetries: 0, timeoutMs })
      .appAccessToken()
      .then(() => undefined);
  /** The live app's options when the settings seam names one (environment first, then Settings). */
  const live = (): MetaClientOptions | null => {
    const meta = settings.current().meta;
    return meta.mode === 'live' && meta.appId && meta.appSecret ? liveOptions(meta.appId, meta.appSecret) : null;
  };

  if (config.meta.mode === 'live') {
    const pinned = () => live() ?? liveOptions(config.meta.appId ?? '', config.meta.appSecret ?? '');
    return {
      client: () => liveClient(pinned()),
      isSandbox: () => false,
      adsManagerUrl: liveAdsManagerUrl,
      verifyApp: (timeoutMs) => verify(pinned(), timeoutMs),
    };
  }
  const sandbox = createSandbox({
    stateFile: join(config.dataDir, 'sandbox-state.json'),
    // Per instance and kept beside the state, so nobody can mint tokens and stored tokens survive a restart.
    appSecret: resolveSandboxSecret(config.dataDir),
    // The consent screen sends users back to this instance's one return page alone, matched exactly as Meta's strict
    // mode does; faults and resets only where asked for.
    allowedRedirects: [connectionRedirectUri(config.publicUrl)],
    controlRoutes: config.meta.sandboxControlRoutes,
  });
  const internalBase = config.role === 'worker' ? config.meta.internalUrl : `http://127.0.0.1:${config.port}`;
  const sandboxOptions: MetaClientOptions = {
    graphBaseUrl: `${internalBase}${SANDBOX_PREFIX}`,
    dialogBaseUrl: `${config.publicUrl}${SANDBOX_PREFIX}`,
    version: config.meta.version,
    appId: sandbox.appId,
    appSecret: sandbox.appSecret,
    ...watched,
  };
  const sandboxClient = new MetaClient(sandboxOptions);
  const sandboxAdsManager = `${config.publicUrl}${SANDBOX_PREFIX}/adsmanager`;
  return {
    client: () => {
      const options = live();
      return options ? liveClient(options) : sandboxClient;
    },
    sandbox,
    isSandbox: () => live() === null,
    adsManagerUrl: (act, isSandbox, holder) => {
      if (!isSandbox) return liveAdsManagerUrl(act);
      return holder ? sandbox.adsManager.link(sandboxAdsManager, act, adsManagerHolderText(holder)) : null;
    },
    sandboxWorldHint: (workspaceId) => (live() === null ? sandbox.worldHint(workspaceId) : undefined),
    sandboxWorldOwns: (workspaceId, act) => live() !== null || isAccountOfWorld(workspaceId, act),
    verifyApp: (timeoutMs) => verify(live() ?? sandboxOptions, timeoutMs),
  };
}
