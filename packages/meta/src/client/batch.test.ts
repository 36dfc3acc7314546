import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../test-fixtures.ts';
import { MetaInvalidParameterError, MetaTransientError } from './errors.ts';
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
});
