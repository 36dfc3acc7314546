import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../test/fixtures.ts';

let fixture: Fixture;
let actId: string;
beforeAll(async () => {
  fixture = await startFixture();
  actId = `act_${fixture.sandbox.personas[0]?.accountIds[0]}`;
});
afterAll(() => fixture.close());

async function insights(
  query: Record<string, string>,
): Promise<{ status: number; error?: { code: number; message: string } }> {
  const params = new URLSearchParams({
    ...query,
    appsecret_proof: fixture.sandbox.tokens.appSecretProof(fixture.token),
  });
  const answer = await fetch(`${fixture.url}/v27.0/${actId}/insights?${params}`, {
    headers: { authorization: `Bearer ${fixture.token}` },
  });
  const body = (await answer.json()) as { error?: { code: number; message: string } };
  return { status: answer.status, ...(body.error ? { error: body.error } : {}) };
}

describe('insights parameters the sandbox refuses instead of ignoring', () => {
  it('refuses breakdowns and filtering, which it does not simulate', async () => {
    expect(await insights({ breakdowns: 'age' })).toMatchObject({ status: 400, error: { code: 100 } });
    expect(
      await insights({ filtering: '[{"field":"campaign.effective_status","operator":"IN","value":["ACTIVE"]}]' }),
    ).toMatchObject({ status: 400, error: { code: 100 } });
  });

  it('refuses the retired 7d_view and 28d_view attribution windows, accepts the current ones', async () => {
    for (const window of ['7d_view', '["28d_view"]']) {
      expect(await insights({ action_attribution_windows: window })).toMatchObject({
        status: 400,
        error: { code: 100 },
      });
    }
    expect(await insights({ action_attribution_windows: '["7d_click","1d_view"]' })).toEqual({ status: 200 });
  });

  it('answers 3018 for a start date beyond 37 months, not for one within', async () => {
    const old = await insights({ time_range: '{"since":"2023-02-09","until":"2023-02-10"}' });
    expect(old).toMatchObject({ status: 400, error: { code: 3018 } });
    expect(old.error?.message).toContain('37 months');
    expect(await insights({ time_range: '{"since":"2023-02-10","until":"2023-02-11"}' })).toEqual({ status: 200 });
  });
});
