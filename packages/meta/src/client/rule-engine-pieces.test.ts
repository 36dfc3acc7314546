import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '@adpilot/meta-sandbox/testing';
import { MetaBudgetLimitError, MetaInvalidParameterError } from './errors.ts';
import { graphAdSchema, graphAdSetSchema } from './wire-types.ts';

let fixture: Fixture;
let actId: string;
beforeAll(async () => {
  fixture = await startFixture();
  actId = `act_${fixture.sandbox.personas[0]?.accountIds[0]}`;
});
afterAll(() => fixture.close());

const HOUR = 3_600_000;

describe('reads before a write', () => {
  it('getEntity reads one object with the fields asked for, counted against its account', async () => {
    const adSet = [...fixture.sandbox.world.adSets.values()][0]!;
    fixture.sandbox.stats.reset();
    const read = await fixture
      .client()
      .getEntity(fixture.token, adSet.id, ['id', 'daily_budget', 'effective_status', 'learning_stage_info'], {
        accountId: actId,
      });
    expect(read.id).toBe(adSet.id);
    expect(graphAdSetSchema.partial().parse(read).learning_stage_info?.status).toMatch(/^(LEARNING|SUCCESS|FAIL)$/);
    expect(fixture.sandbox.stats.snapshot().byAccount[adSet.accountId]).toBe(1);
  });

  it('getEntities reads many ids as batch items, 50 per call, never through ?ids=', async () => {
    const ids = [...fixture.sandbox.world.ads.keys()].slice(0, 60);
    fixture.sandbox.stats.reset();
    const objects = await fixture
      .client()
      .getEntities(fixture.token, [...ids, 'no-such-id'], ['id', 'effective_status']);
    expect(Object.keys(objects).sort()).toEqual([...ids].sort());
    for (const id of ids)
      expect(objects[id]?.effective_status).toBe(
        fixture.sandbox.world.effectiveStatus(
          { kind: 'ad', entity: fixture.sandbox.world.ads.get(id)! },
          fixture.clock.now(),
        ),
      );
    const stats = fixture.sandbox.stats.snapshot();
    expect(stats.byKind.batch).toBe(2);
    expect(stats.byKind.ids ?? 0).toBe(0);
  });

  it("lists ads with issues_info and Meta's review statuses; archived and deleted ones only when asked", async () => {
    const client = fixture.client();
    const ads = await client.listAds(fixture.token, actId);
    const statuses = new Set(ads.map((ad) => ad.effective_status));
    for (const status of ['DISAPPROVED', 'PENDING_REVIEW', 'WITH_ISSUES', 'IN_PROCESS'])
      expect(statuses).toContain(status);
    expect(statuses.has('ARCHIVED') || statuses.has('DELETED')).toBe(false);
    const rejected = ads.find((ad) => ad.effective_status === 'DISAPPROVED')!;
    expect(graphAdSchema.parse(rejected).issues_info?.[0]).toMatchObject({ level: 'AD', error_type: 'HARD_ERROR' });
    expect(ads.find((ad) => ad.effective_status === 'ACTIVE')?.issues_info).toBeUndefined();

    const proof = fixture.sandbox.tokens.appSecretProof(fixture.token);
    const archived = await fetch(
      `${fixture.url}/v27.0/${actId}/campaigns?fields=id,name,effective_status&effective_status=${encodeURIComponent('["ARCHIVED"]')}&appsecret_proof=${proof}`,
      { headers: { authorization: `Bearer ${fixture.token}` } },
    );
    const archivedPage = (await archived.json()) as { data: { name: string; effective_status: string }[] };
    expect(archivedPage.data).toEqual([
      expect.objectContaining({ name: 'Spring Sale 2025', effective_status: 'ARCHIVED' }),
    ]);

    const deleted = [...fixture.sandbox.world.campaigns.values()].find(
      (campaign) => campaign.name === 'Creative Test Batch',
    )!;
    expect(await client.getEntity(fixture.token, deleted.id, ['status', 'effective_status'])).toMatchObject({
      status: 'DELETED',
      effective_status: 'DELETED',
    });
    await expect(client.updateStatus(fixture.token, deleted.id, 'ACTIVE')).rejects.toBeInstanceOf(
      MetaInvalidParameterError,
    );
  });
});

describe('writes', () => {
  it("validate_only runs Meta's checks without changing anything", async () => {
    const client = fixture.client();
    const adSet = [...fixture.sandbox.world.adSets.values()].find(
      (candidate) =>
        candidate.budgetLog.at(-1)?.dailyBudget !== undefined && !fixture.sandbox.world.campaignOf(candidate).isCbo,
    )!;
    const before = fixture.sandbox.mutations.length;
    const budget = adSet.budgetLog.at(-1)!.dailyBudget!;
    await client.updateBudget(fixture.token, adSet.id, { dailyBudget: budget * 2 }, { validateOnly: true });
    await client.updateStatus(fixture.token, adSet.id, 'PAUSED', { validateOnly: true });
    expect(fixture.sandbox.mutations.length).toBe(before);
    expect(adSet.budgetLog.at(-1)?.dailyBudget).toBe(budget);
    await expect(
      client.updateBudget(fixture.token, adSet.id, { dailyBudget: 1 }, { validateOnly: true }),
    ).rejects.toMatchObject({ code: 100, subcode: 1885272 });
  });

  it('refuses writes in DISABLED and UNSETTLED accounts, reads still work', async () => {
    const world = fixture.sandbox.world;
    const frozen = [...world.accounts.values()].filter(
      (account) => account.accountStatus === 2 || account.accountStatus === 3,
    );
    expect(frozen.map((account) => account.accountStatus).sort()).toEqual([2, 3]);
    for (const account of frozen) {
      const token = fixture.sandbox.issueToken(account.personaId);
      const campaign = world.campaignsOf(account)[0]!;
      await expect(fixture.client().updateStatus(token, campaign.id, 'PAUSED')).rejects.toBeInstanceOf(
        MetaInvalidParameterError,
      );
      expect((await fixture.client().getEntity(token, campaign.id, ['status'])).status).toBeDefined();
    }
  });

  it('a code 17 answer to a budget write raises the budget-limit error at once, with the hour to postpone', async () => {
    const requests: string[] = [];
    const fetchStub: typeof fetch = async (input) => {
      requests.push(String(input));
      return Response.json(
        { error: { message: '(#17) User request limit reached', code: 17, type: 'OAuthException' } },
        { status: 400 },
      );
    };
    const client = fixture.client({ fetch: fetchStub });
    fixture.sleeps.length = 0;
    const write = client.updateBudget(fixture.token, '123', { dailyBudget: 5000 });
    await expect(write).rejects.toBeInstanceOf(MetaBudgetLimitError);
    await expect(write).rejects.toMatchObject({ retryAfterMs: HOUR });
    expect(requests).toHaveLength(1);
    expect(fixture.sleeps).toEqual([]);
    // The same answer to a read is an ordinary rate limit, waited out and retried.
    await expect(client.getEntity(fixture.token, '123', ['id'])).rejects.not.toBeInstanceOf(MetaBudgetLimitError);
    expect(requests.length).toBeGreaterThan(2);
  });
});

describe('login URL', () => {
  it('carries config_id for Login for Business and auth_type=rerequest to ask again', () => {
    const url = new URL(
      fixture
        .client()
        .getDialogUrl({ redirectUri: 'https://app.example.com/cb', state: 's', configId: '123', rerequest: true }),
    );
    expect(url.searchParams.get('config_id')).toBe('123');
    expect(url.searchParams.get('auth_type')).toBe('rerequest');
    expect(url.searchParams.has('scope')).toBe(false);
    const plain = new URL(
      fixture.client().getDialogUrl({ redirectUri: 'https://a.example/cb', state: 's', scopes: ['ads_read'] }),
    );
    expect(plain.searchParams.get('scope')).toBe('ads_read');
    expect(plain.searchParams.has('auth_type')).toBe(false);
  });

  it('grantedScopes reads what the user left ticked', async () => {
    const readOnly = fixture.sandbox.issueToken(undefined, ['ads_read']);
    expect(await fixture.client().grantedScopes(readOnly)).toEqual(['ads_read']);
  });

  it("inspectToken reads when the token stops working from debug_token's expires_at", async () => {
    const token = fixture.sandbox.issueToken(undefined, ['ads_read'], 3 * 86_400);
    const issuedAt = Math.floor(fixture.clock.now() / 1000);
    expect(await fixture.client().inspectToken(token)).toMatchObject({
      scopes: ['ads_read'],
      expiresAt: new Date((issuedAt + 3 * 86_400) * 1000),
      type: 'USER',
    });
  });
});
