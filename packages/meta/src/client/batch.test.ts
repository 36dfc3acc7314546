import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';
import { MetaBudgetLimitError, MetaInvalidParameterError, MetaTransientError } from './errors.ts';
import type { BatchRequest } from './batch.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture.close());

describe('batch', () => {
  it('answers each item in order, with errors as entries', async () => {
    const account = fixture.sandbox.world.account(fixture.sandbox.personas[0]?.accountIds[0] ?? '');
    const campaignId = account?.campaignIds[0] ?? '';
    const results = await fixture.client().batch(fixture.token, [
      { method: 'GET', relativeUrl: `act_${account?.id}/campaigns?fields=id,name&limit=2` },
      { method: 'POST', relativeUrl: campaignId, body: { status: 'PAUSED' } },
      { method: 'GET', relativeUrl: `${campaignId}?fields=status` },
      { method: 'GET', relativeUrl: '999999?fields=id' },
    ]);
    expect(results.map((result) => result.code)).toEqual([200, 200, 200, 400]);
    expect((results[0]?.body as { data: unknown[] }).data).toHaveLength(2);
    expect(results[1]?.body).toEqual({ success: true });
    expect(results[2]?.body).toMatchObject({ status: 'PAUSED' });
    expect(results[3]?.error).toBeInstanceOf(MetaInvalidParameterError);
  });

  it('splits more than 50 requests into several calls and counts every item', async () => {
    fixture.sandbox.stats.reset();
    const requests: BatchRequest[] = Array.from({ length: 120 }, () => ({
      method: 'GET',
      relativeUrl: 'me?fields=id,name',
    }));
    const results = await fixture.client().batch(fixture.token, requests);
    expect(results).toHaveLength(120);
    expect(results.every((result) => result.code === 200 && (result.body as { id?: string }).id)).toBe(true);
    expect(fixture.sandbox.stats.snapshot()).toMatchObject({
      total: 3,
      batchItems: 120,
      byKind: { batch: 3, me: 120 },
    });
  });

  it('turns a null item (timed out inside the batch) into a transient error entry', async () => {
    const fetchStub: typeof fetch = async () =>
      new Response(JSON.stringify([{ code: 200, body: '{"id":"1"}' }, null]), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    const results = await fixture.client({ fetch: fetchStub }).batch(fixture.token, [
      { method: 'GET', relativeUrl: 'me' },
      { method: 'GET', relativeUrl: 'me' },
    ]);
    expect(results[0]).toEqual({ code: 200, body: { id: '1' } });
    expect(results[1]?.error).toBeInstanceOf(MetaTransientError);
  });

  it('never resends a batch with writes after a failure; a batch of reads is retried', async () => {
    const account = fixture.sandbox.world.account(fixture.sandbox.personas[0]?.accountIds[0] ?? '');
    const campaignId = account?.campaignIds[0] ?? '';
    fixture.sandbox.faults.set({ serverError: { count: 1 } });
    fixture.sandbox.stats.reset();
    const writes = fixture
      .client()
      .batch(fixture.token, [
        { method: 'POST', relativeUrl: campaignId, body: { status: 'PAUSED' }, accountId: account?.id },
      ]);
    await expect(writes).rejects.toBeInstanceOf(MetaTransientError);
    expect(fixture.sandbox.stats.snapshot().byKind.batch).toBe(1);

    fixture.sandbox.faults.set({ serverError: { count: 1 } });
    fixture.sandbox.stats.reset();
    const reads = await fixture.client().batch(fixture.token, [{ method: 'GET', relativeUrl: 'me?fields=id' }]);
    expect(reads[0]?.code).toBe(200);
    expect(fixture.sandbox.stats.snapshot().byKind.batch).toBe(2);
  });

  it('waits for the throttle Meta announced on any account the batch touches before sending it', async () => {
    const [other = '', throttledId = ''] = fixture.sandbox.personas[0]?.accountIds ?? [];
    const client = fixture.client({ maxRateLimitRetries: 0 });
    fixture.sandbox.faults.set({ rateLimit: { count: 1, regainMinutes: 4, accountId: throttledId } });
    await expect(client.getAdAccount(fixture.token, throttledId)).rejects.toMatchObject({ retryAfterMs: 240_000 });
    fixture.sleeps.length = 0;
    await client.batch(fixture.token, [{ method: 'GET', relativeUrl: `act_${other}?fields=id`, accountId: other }]);
    expect(fixture.sleeps).toEqual([]);
    await client.batch(fixture.token, [
      { method: 'GET', relativeUrl: `act_${other}?fields=id`, accountId: other },
      { method: 'GET', relativeUrl: `act_${throttledId}?fields=id`, accountId: throttledId },
    ]);
    expect(fixture.sleeps).toEqual([240_000]);
  });

  it('reports a code 17 on a budget item as the budget-limit error', async () => {
    const fetchStub: typeof fetch = async () =>
      Response.json([
        { code: 400, body: JSON.stringify({ error: { message: '(#17) User request limit reached', code: 17 } }) },
        { code: 400, body: JSON.stringify({ error: { message: '(#17) User request limit reached', code: 17 } }) },
      ]);
    const results = await fixture.client({ fetch: fetchStub }).batch(fixture.token, [
      { method: 'POST', relativeUrl: '1', body: { daily_budget: 5000 } },
      { method: 'GET', relativeUrl: '1?fields=id' },
    ]);
    expect(results[0]?.error).toBeInstanceOf(MetaBudgetLimitError);
    expect(results[1]?.error).not.toBeInstanceOf(MetaBudgetLimitError);
  });
});
