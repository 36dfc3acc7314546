import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { fixedSettings, resolveSettings } from '../../config/runtime-settings.ts';
import { readWorldHint } from '@adpilot/meta-sandbox';
import { connectionRedirectUri, createMetaProvider } from './meta-provider.ts';

/** A config and the settings seam it alone resolves to (nothing saved). */
function withSettings(env: Record<string, string>) {
  const config = loadConfig(env);
  return [config, fixedSettings(resolveSettings(config, {}).providers)] as const;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adpilot-meta-provider-'));
  dirs.push(dir);
  return dir;
}

describe('embedded sandbox provider', () => {
  it('keeps a per-instance sandbox secret in DATA_DIR: the same after a restart, another for another instance', () => {
    const dir = dataDir();
    const first = createMetaProvider(...withSettings({ DATA_DIR: dir, NODE_ENV: 'test' }));
    const restarted = createMetaProvider(...withSettings({ DATA_DIR: dir, NODE_ENV: 'test' }));
    const other = createMetaProvider(...withSettings({ DATA_DIR: dataDir(), NODE_ENV: 'test' }));
    expect(first.sandbox?.appSecret).toBe(restarted.sandbox?.appSecret);
    expect(first.sandbox?.appSecret).not.toBe(other.sandbox?.appSecret);
    expect(first.sandbox?.appSecret).not.toBe('sandbox-secret');
    expect(statSync(join(dir, 'sandbox-secret')).mode & 0o777).toBe(0o600);
    const token = first.sandbox?.issueToken() ?? '';
    expect(restarted.sandbox?.tokens.readUser(token)).toBeDefined();
    expect(other.sandbox?.tokens.readUser(token)).toBeUndefined();
  });

  it('builds the sandbox only while the environment names no Meta app (the server mounts it then alone)', () => {
    const dir = dataDir();
    expect(createMetaProvider(...withSettings({ DATA_DIR: dir, NODE_ENV: 'test' })).sandbox).toBeDefined();
    const live = createMetaProvider(
      ...withSettings({ DATA_DIR: dir, NODE_ENV: 'test', META_APP_ID: '123', META_APP_SECRET: 'live-secret' }),
    );
    expect(live.sandbox).toBeUndefined();
    expect(live.isSandbox()).toBe(false);
  });

  it("lets the consent dialog send users back to the instance's connection page alone", () => {
    const [config, settings] = withSettings({
      DATA_DIR: dataDir(),
      NODE_ENV: 'test',
      PUBLIC_URL: 'https://ads.example',
    });
    const provider = createMetaProvider(config, settings);
    expect(provider.sandbox?.allowedRedirects).toEqual([connectionRedirectUri('https://ads.example')]);
    expect(connectionRedirectUri('https://ads.example')).toBe('https://ads.example/ad-accounts');
  });

  it('mounts the control routes only when enabled outside production', () => {
    const dir = dataDir();
    expect(createMetaProvider(...withSettings({ DATA_DIR: dir })).sandbox?.control).toBeUndefined();
    expect(
      createMetaProvider(...withSettings({ DATA_DIR: dir, SANDBOX_CONTROL_ROUTES: 'true' })).sandbox?.control,
    ).toBeDefined();
    expect(
      createMetaProvider(...withSettings({ DATA_DIR: dir, SANDBOX_CONTROL_ROUTES: 'true', NODE_ENV: 'production' }))
        .sandbox?.control,
    ).toBeUndefined();
  });

  it("signs each workspace's world hint and knows its accounts; a live app gets neither", () => {
    const dir = dataDir();
    const provider = createMetaProvider(...withSettings({ DATA_DIR: dir, NODE_ENV: 'test' }));
    const hint = provider.sandboxWorldHint?.('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b') ?? '';
    expect(readWorldHint(provider.sandbox?.appSecret ?? '', hint)).toBe('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b');
    const live = createMetaProvider(
      ...withSettings({ DATA_DIR: dir, NODE_ENV: 'test', META_APP_ID: '123', META_APP_SECRET: 'live-secret' }),
    );
    expect(live.sandboxWorldHint?.('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b')).toBeUndefined();
    const own = provider.sandbox?.worldRuntime('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b').personas[0]?.accountIds[0] ?? '';
    const shared = provider.sandbox?.personas[0]?.accountIds[0] ?? '';
    expect(provider.sandboxWorldOwns?.('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b', own)).toBe(true);
    expect(provider.sandboxWorldOwns?.('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b', shared)).toBe(false);
    expect(provider.sandboxWorldOwns?.('0c2e5a1b-7d3f-4a6e-9b8c-1d2e3f4a5b6c', own)).toBe(false);
    expect(live.sandboxWorldOwns?.('9b1f4c2e-0d3a-4e5b-8c7d-6a5f4e3d2c1b', shared) ?? true).toBe(true);
  });
});
