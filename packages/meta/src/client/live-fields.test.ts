import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture.close());

/** A sleep that holds each waiter until the test lets it go, advancing the shared clock then. */
function gatedSleep() {
  const waiting: { ms: number; release: () => void }[] = [];
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      waiting.push({
        ms,
        release: () => {
          fixture.clock.advance(ms);
          resolve();
        },
      });
    });
  return { sleep, waiting };
}

const statusOf = async (id: string) =>
  (await fixture.client().getEntity(fixture.token, id, ['status'])).status as string;

async function untilWaiting(waiting: unknown[], count: number) {
  for (let i = 0; i < 200 && waiting.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(waiting).toHaveLength(count);
}

describe('live reads and writes carry their ad account', () => {
  it('reads the fields about to change and writes them, each answered on its own', async () => {
    const [accountId = ''] = fixture.sandbox.personas[0]?.accountIds ?? [];
    const campaignId = fixture.sandbox.world.account(accountId)?.campaignIds[0] ?? '';
    const client = fixture.client();
    const live = await client.readLiveValues(fixture.token, accountId, [
      { id: campaignId, field: 'status' },
      { id: '999999', field: 'status' },
    ]);
    expect([...live.keys()]).toEqual([campaignId]);
    const answers = await client.writeFields(fixture.token, accountId, [
      { id: campaignId, field: 'status', value: 'PAUSED' },
      { id: '999999', field: 'status', value: 'PAUSED' },
    ]);
    expect(answers.map((answer) => answer.code)).toEqual([200, 400]);
    expect(await statusOf(campaignId)).toBe('PAUSED');
  });

  it("a throttled account's writes wait for its throttle while another account's go through", async () => {
    const [otherId = '', throttledId = ''] = fixture.sandbox.personas[0]?.accountIds ?? [];
    const world = fixture.sandbox.world;
    const throttledCampaign = world.account(throttledId)?.campaignIds[1] ?? '';
    const otherCampaign = world.account(otherId)?.campaignIds[1] ?? '';
    expect(await statusOf(throttledCampaign)).toBe('ACTIVE');
    expect(await statusOf(otherCampaign)).toBe('ACTIVE');

    const gate = gatedSleep();
    const client = fixture.client({ sleep: gate.sleep, maxRateLimitRetries: 0 });
    // Meta tells this client the account is over its limit for four minutes.
    fixture.sandbox.faults.set({ rateLimit: { count: 1, regainMinutes: 4, accountId: throttledId } });
    await expect(client.getAdAccount(fixture.token, throttledId)).rejects.toMatchObject({ retryAfterMs: 240_000 });

    const throttledWrite = client.writeFields(fixture.token, throttledId, [
      { id: throttledCampaign, field: 'status', value: 'PAUSED' },
    ]);
    await untilWaiting(gate.waiting, 1);
    expect(gate.waiting[0]?.ms).toBe(240_000);

    const otherAnswers = await client.writeFields(fixture.token, otherId, [
      { id: otherCampaign, field: 'status', value: 'PAUSED' },
    ]);
    expect(otherAnswers.map((answer) => answer.code)).toEqual([200]);
    expect(await statusOf(otherCampaign)).toBe('PAUSED');
    // The throttled account's write is still held before sending: Meta has not seen it.
    expect(gate.waiting).toHaveLength(1);
    expect(await statusOf(throttledCampaign)).toBe('ACTIVE');

    gate.waiting[0]?.release();
    expect((await throttledWrite).map((answer) => answer.code)).toEqual([200]);
    expect(await statusOf(throttledCampaign)).toBe('PAUSED');
  });

  it('the live read before a write waits for the same throttle', async () => {
    const [, throttledId = ''] = fixture.sandbox.personas[0]?.accountIds ?? [];
    const campaignId = fixture.sandbox.world.account(throttledId)?.campaignIds[2] ?? '';
    const gate = gatedSleep();
    const client = fixture.client({ sleep: gate.sleep, maxRateLimitRetries: 0 });
    fixture.sandbox.faults.set({ rateLimit: { count: 1, regainMinutes: 2, accountId: throttledId } });
    await expect(client.getAdAccount(fixture.token, throttledId)).rejects.toMatchObject({ retryAfterMs: 120_000 });
    const read = client.readLiveValues(fixture.token, `act_${throttledId}`, [{ id: campaignId, field: 'status' }]);
    await untilWaiting(gate.waiting, 1);
    expect(gate.waiting[0]?.ms).toBe(120_000);
    gate.waiting[0]?.release();
    expect((await read).get(campaignId)?.status).toBe('ACTIVE');
  });
});
