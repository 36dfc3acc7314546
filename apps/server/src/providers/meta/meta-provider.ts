import { join } from 'node:path';
import { MetaClient } from '@adpilot/meta';
import { createSandbox, type Sandbox } from '@adpilot/meta/sandbox';
import type { Config } from '../../config/env.ts';
import { resolveSandboxSecret } from './sandbox-secret.ts';

export const SANDBOX_PREFIX = '/sandbox/meta';
export const ADS_MANAGER_URL = 'https://adsmanager.facebook.com/adsmanager/manage/campaigns';

export interface MetaProvider {
  client: MetaClient;
  /** Present on the embedded default: the simulator the server mounts under /sandbox/meta. */
  sandbox?: Sandbox;
  adsManagerBase: string;
}

/**
 * Meta, or the built-in sandbox when no app id is configured. The client is the same either way; only its base
 * addresses differ. The server reaches its own sandbox over loopback, the browser through the public address.
 */
export function createMetaProvider(config: Config): MetaProvider {
  if (config.meta.mode === 'live') {
    return {
      client: new MetaClient({
        graphBaseUrl: config.meta.graphUrl,
        dialogBaseUrl: config.meta.dialogUrl,
        version: config.meta.version,
        appId: config.meta.appId ?? '',
        appSecret: config.meta.appSecret ?? '',
      }),
      adsManagerBase: ADS_MANAGER_URL,
    };
  }
  const sandbox = createSandbox({
    stateFile: join(config.dataDir, 'sandbox-state.json'),
    // Per instance and kept beside the state, so nobody can mint tokens and stored tokens survive a restart.
    appSecret: resolveSandboxSecret(config.dataDir),
    // The consent screen only sends users back to this instance; faults and resets only where asked for.
    allowedRedirects: [`${config.publicUrl}/`],
    controlRoutes: config.meta.sandboxControlRoutes,
  });
  const internalBase = config.role === 'worker' ? config.publicUrl : `http://127.0.0.1:${config.port}`;
  return {
    client: new MetaClient({
      graphBaseUrl: `${internalBase}${SANDBOX_PREFIX}`,
      dialogBaseUrl: `${config.publicUrl}${SANDBOX_PREFIX}`,
      version: config.meta.version,
      appId: sandbox.appId,
      appSecret: sandbox.appSecret,
    }),
    sandbox,
    adsManagerBase: `${config.publicUrl}${SANDBOX_PREFIX}/adsmanager`,
  };
}
