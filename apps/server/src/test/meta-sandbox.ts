import { MetaClient, type MetaObserver } from '@adpilot/meta';
import { isAccountOfWorld, startSandboxServer, type RunningSandbox, type SandboxOptions } from '@adpilot/meta-sandbox';
import { adsManagerHolderText, type MetaProvider } from '../providers/meta/meta-provider.ts';

export interface TestSandboxOptions extends SandboxOptions {
  /**
   * Give each workspace its own sandbox world, as the server does (default false: every workspace shares the
   * default world, whose ids and names the other tests know).
   */
  worlds?: boolean;
}

/**
 * A sandbox on its own port and a client pointed at it, with waits skipped so retries do not slow tests; `observer`
 * hears the client's calls (an app's metrics).
 */
export async function startTestSandbox(
  options: TestSandboxOptions = {},
  observer?: MetaObserver,
): Promise<{ running: RunningSandbox; provider: MetaProvider }> {
  const { worlds = false, ...sandboxOptions } = options;
  const running = await startSandboxServer(sandboxOptions);
  const clientOptions = {
    graphBaseUrl: running.url,
    dialogBaseUrl: running.url,
    appId: running.sandbox.appId,
    appSecret: running.sandbox.appSecret,
    sleep: async () => undefined,
    ...(observer ? { observer } : {}),
  };
  const client = new MetaClient(clientOptions);
  return {
    running,
    provider: {
      client: () => client,
      sandbox: running.sandbox,
      isSandbox: () => true,
      adsManagerUrl: (act, _isSandbox, holder) =>
        holder ? running.sandbox.adsManager.link(`${running.url}/adsmanager`, act, adsManagerHolderText(holder)) : null,
      ...(worlds
        ? {
            sandboxWorldHint: (workspaceId: string) => running.sandbox.worldHint(workspaceId),
            sandboxWorldOwns: (workspaceId: string, act: string) => isAccountOfWorld(workspaceId, act),
          }
        : {}),
      verifyApp: (timeoutMs) =>
        new MetaClient({ ...clientOptions, maxRetries: 0, timeoutMs }).appAccessToken().then(() => undefined),
    },
  };
}

/**
 * Plays the user on the sandbox's consent screen: reads its form and submits Allow (or Cancel), as the sandbox user
 * `persona` (an id; the screen's first user when left out).
 */
export async function answerConsent(
  authUrl: string,
  decision: 'allow' | 'cancel' = 'allow',
  persona?: string,
): Promise<URL> {
  const page = await fetch(authUrl);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  if (!action) throw new Error('no consent form');
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(match[1] ?? '', (match[2] ?? '').replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
  }
  fields.set('decision', decision);
  if (persona !== undefined) fields.set('persona', persona);
  const answer = await fetch(new URL(action, authUrl), { method: 'POST', body: fields, redirect: 'manual' });
  const location = answer.headers.get('location');
  if (!location) throw new Error(`consent did not redirect (${answer.status})`);
  return new URL(location);
}
