import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';
import { callKind, type MetaObserver } from './observer.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture.close());

type Event = { type: string } & Record<string, unknown>;

/** An observer that keeps what it was told, in order. */
function recording(): { observer: MetaObserver; events: Event[] } {
  const events: Event[] = [];
  return {
    events,
    observer: {
      call: (event) => events.push({ type: 'call', ...event }),
      wait: (event) => events.push({ type: 'wait', ...event }),
      usage: (event) => events.push({ type: 'usage', ...event }),
    },
  };
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });

describe('callKind', () => {
  it('names the endpoint family, never an id', () => {
    expect(callKind('act_123/campaigns', {})).toBe('campaigns');
    expect(callKind('/v27.0/act_123/adsets', {})).toBe('ad_sets');
    expect(callKind('123456/insights', {})).toBe('insights');
    expect(callKind('me/adaccounts', {})).toBe('ad_accounts');
    expect(callKind('oauth/access_token', {})).toBe('oauth');
    expect(callKind('debug_token', {})).toBe('debug_token');
    expect(callKind('act_123', {})).toBe('object');
    expect(callKind('987654321', {})).toBe('object');
    expect(callKind('', { batch: '[]' })).toBe('batch');
    expect(callKind('', { ids: '1,2' })).toBe('objects');
    expect(callKind('me', {})).toBe('other');
    expect(callKind('something/unheard_of', {})).toBe('other');
  });
});

describe('the observer', () => {
  it('hears each call with its family and outcome, and the account usage Meta reported', async () => {
    const { observer, events } = recording();
    const client = fixture.client({ observer });
    const accountId = fixture.sandbox.personas[0]?.accountIds[0] ?? '';
    await client.listCampaigns(fixture.token, accountId);
    await client.getAdAccount(fixture.token, accountId);
    await expect(client.getAdAccount(fixture.token, '999999999')).rejects.toThrow();

    const calls = events.filter((event) => event.type === 'call');
    expect(calls.map((call) => [call.kind, call.method, call.outcome])).toEqual([
      ['campaigns', 'GET', 'ok'],
      ['object', 'GET', 'ok'],
      ['object', 'GET', expect.stringMatching(/^(invalid_parameter|permission|error)$/)],
    ]);
    const usage = events.find((event) => event.type === 'usage') as { account?: { accountId: string } } | undefined;
    expect(usage?.account?.accountId).toBe(accountId.replace(/^act_/, ''));
    // Nothing told carries a token or an address.
    expect(JSON.stringify(events)).not.toContain(fixture.token);
    expect(JSON.stringify(events)).not.toContain('http');
  });

  it('hears a throttle wait, a rate limit and its backoff, and goes on when the observer throws', async () => {
    const { observer, events } = recording();
    const answers = [
      // The account is at its limit: the next call for it waits the minute Meta announced.
      json(
        { data: [] },
        {
          'x-business-use-case-usage': JSON.stringify({
            '1': [{ type: 'ads_management', call_count: 100, estimated_time_to_regain_access: 1 }],
          }),
        },
      ),
      new Response(JSON.stringify({ error: { code: 17, message: 'User request limit reached' } }), { status: 400 }),
      json({ data: [] }),
    ];
    const client = fixture.client({
      observer: {
        ...observer,
        usage: () => {
          throw new Error('a broken observer');
        },
      },
      fetch: async () => answers.shift() ?? json({}),
    });
    await client.listCampaigns(fixture.token, 'act_1');
    await client.listCampaigns(fixture.token, 'act_1');

    expect(events.map((event) => [event.type, event.reason ?? event.outcome])).toEqual([
      ['call', 'ok'],
      ['wait', 'throttle'],
      ['call', 'rate_limited'],
      ['wait', 'rate_limit'],
      ['call', 'ok'],
    ]);
    expect(events[1]?.seconds).toBe(60);
  });
});
