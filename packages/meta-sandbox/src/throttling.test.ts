import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaClient } from '@adpilot/meta';
import { TestClock } from '../test/fixtures.ts';
import { startSandboxServer, type RunningSandbox } from './http/server.ts';
import type { SandboxSeed } from './world/seed.ts';

/** One account with one ad: the development-tier ads_management quota is 300 + 40 × 1 active ad = 340 points/hour. */
const TINY_SEED: SandboxSeed = {
  seed: 'tiny',
  personas: [
    {
      name: 'Throttle User',
      accounts: [
        {
          id: '340340340',
          name: 'Tiny',
          currency: 'USD',
          timezone: 'UTC',
          campaigns: 1,
          adSetsPerCampaign: 1,
          adsPerAdSet: 1,
        },
      ],
    },
  ],
};
const ACT = 'act_340340340';

let running: RunningSandbox;
let clock: TestClock;
beforeAll(async () => {
  clock = new TestClock('2026-03-10T03:00:00Z');
  running = await startSandboxServer({ seed: TINY_SEED, now: clock.date });
});
afterAll(() => running.close());

/**
 * A client with its own usage tracker (another process), whose waits move the shared clock. As with real timers,
 * concurrent waits overlap (each ends at its own deadline) and time moves only once the calls in flight are answered.
 */
function processClient(sleeps: number[], statuses: number[]): MetaClient {
  let inFlight = 0;
  return new MetaClient({
    graphBaseUrl: running.url,
    appId: running.sandbox.appId,
    appSecret: running.sandbox.appSecret,
    now: clock.now,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      const until = clock.now() + ms;
      while (inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
      if (clock.now() < until) clock.advance(until - clock.now());
    },
    fetch: async (input, init) => {
      inFlight++;
      try {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      } finally {
        inFlight--;
      }
    },
  });
}

describe('throttling reached by ordinary use', () => {
  it('past 100 % of the tier the sandbox answers 17/2446079 with the regain time; the client waits it out', async () => {
    running.sandbox.reset();
    const token = running.sandbox.issueToken();
    const adSetId = [...running.sandbox.world.adSets.keys()][0] ?? '';

    // The sync process reads the account every 10 s for 50 minutes: 300 points, 88 % of the hour's quota.
    const syncSleeps: number[] = [];
    const sync = processClient(syncSleeps, []);
    for (let call = 0; call < 300; call++) {
      await sync.getAdAccount(token, ACT);
      clock.advance(10_000);
    }
    expect(syncSleeps).toEqual([]);
    expect(sync.usage(ACT)?.accIdUtilPct).toBeCloseTo((300 / 340) * 100, 1);

    // The rule engine, another process, reads 46 ad sets' live state at once: 40 fit, 6 are refused.
    const sleeps: number[] = [];
    const statuses: number[] = [];
    const engine = processClient(sleeps, statuses);
    const started = clock.now();
    const reads = await Promise.all(
      Array.from({ length: 46 }, () => engine.getEntity(token, adSetId, ['id', 'name'], { accountId: ACT })),
    );
    expect(reads.every((read) => read.id === adSetId)).toBe(true);
    expect(statuses.filter((status) => status === 400)).toHaveLength(6);
    expect(statuses).toHaveLength(52);
    // Refused at minute 50: the first minute's points leave the rolling hour at minute 60, so 10 minutes.
    expect(sleeps).toEqual(Array.from({ length: 6 }, () => 10 * 60_000));
    expect(clock.now() - started).toBe(10 * 60_000);
  });

  it("refuses with Meta's shape and headers: code 17, subcode 2446079, regain in minutes and seconds", async () => {
    const token = running.sandbox.issueToken();
    const proof = running.sandbox.tokens.appSecretProof(token);
    running.sandbox.reset();
    const url = `${running.url}/v27.0/${ACT}?fields=id&appsecret_proof=${proof}`;
    const headers = { authorization: `Bearer ${token}` };
    for (let call = 0; call < 340; call++) expect((await fetch(url, { headers })).status).toBe(200);
    const refused = await fetch(url, { headers });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: 17, error_subcode: 2446079, is_transient: true, message: '(#17) User request limit reached' },
    });
    const usage = JSON.parse(refused.headers.get('x-business-use-case-usage') ?? '{}') as Record<
      string,
      { type: string; call_count: number; estimated_time_to_regain_access: number }[]
    >;
    expect(usage['340340340']?.[0]).toMatchObject({
      type: 'ads_management',
      call_count: 100,
      estimated_time_to_regain_access: 60,
    });
    expect(JSON.parse(refused.headers.get('x-ad-account-usage') ?? '{}')).toMatchObject({ reset_time_duration: 3600 });
  });

  it('insights have their own quota and answer 80000 past it', async () => {
    running.sandbox.reset();
    const meter = running.sandbox.usage;
    const now = clock.now();
    // 600 + 400 × 1 active ad points of insights fill the hour.
    meter.record('340340340', 'ads_insights', 1000, now);
    expect(meter.throttle('340340340', 'ads_insights', 1, now)).toMatchObject({ code: 80000, subcode: 2446079 });
    expect(meter.throttle('340340340', 'ads_management', 1, now)).toBeUndefined();
  });
});
