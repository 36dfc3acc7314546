import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

/** The signed-in page's bearer token, for the API checks beside the page. */
const tokenOf = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem('token'),
  );

async function api(request: APIRequestContext, token: string | null, url: string) {
  const response = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

async function askWasted(page: Page) {
  // Ads over 30 days: a sandbox world's campaigns over a week may have nothing wasted, its ads over a month do.
  await page.getByLabel('Your question').fill('Which of my ads is wasting the most money in the last 30 days?');
  await page.getByRole('button', { name: 'Get AI Advice' }).click();
  await expect(page.getByLabel('Your question')).toHaveValue('');
  await expect(page.getByTestId('ai-response')).toBeVisible();
}

/** Every account's sync, asked for now and finished: the mirror then holds what Meta says of each entity. */
async function syncAll(request: APIRequestContext, token: string | null) {
  const headers = { authorization: `Bearer ${token}` };
  const accounts = (await api(request, token, '/api/ad-accounts')) as { id: string; last_sync: string | null }[];
  const before = new Map(accounts.map((account) => [account.id, account.last_sync]));
  for (const account of accounts) {
    const asked = await request.post(`/api/ad-accounts/${account.id}/sync`, { headers, data: {} });
    expect(asked.status(), `a sync of ${account.id}`).toBe(202);
  }
  await expect
    .poll(
      async () => {
        const now = (await api(request, token, '/api/ad-accounts')) as {
          id: string;
          last_sync: string | null;
          sync_status: string;
        }[];
        return now.every(
          (account) =>
            account.sync_status === 'idle' &&
            account.last_sync !== null &&
            account.last_sync !== before.get(account.id),
        );
      },
      { timeout: 60_000, message: 'every account synced again' },
    )
    .toBe(true);
}

// Issue 29, ADR 0156: a change the assistant suggests is changed only when the person confirms it in the AI studio,
// through the explorer's manual actions as themselves: sent to the Inbox, or applied through the ledger.
// The analyst suggests pausing only an ad that runs (its effective status in the mirror) and spent with no results.
// A workspace's sandbox world is drawn from its id (ADR 0089), and in most worlds every such ad was paused since or
// sits under a paused parent; the end-to-end server cannot be handed a chosen world (the hint is signed by the server
// for the workspace, and the sandbox's control routes are off in production). So the spec makes the world it got
// have one, as a person would: in each account that takes writes, the biggest such ad is resumed by hand with its
// parents, then every account is synced, so the mirror's effective status is Meta's.
test('a suggested change is sent to the Inbox, then confirmed and applied, from the AI studio', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInFreshUser(page, request, 'suggestions');
  await connectSandbox(page);
  const token = await tokenOf(page);
  await expect
    .poll(
      async () => {
        const accounts = (await api(request, token, '/api/ad-accounts')) as { last_sync: string | null }[];
        return accounts.length > 0 && accounts.every((account) => account.last_sync !== null);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  const ads = (await api(request, token, '/api/entities?level=ad&window=last_30d&limit=500')) as {
    id: string;
    adAccountId: string;
    effectiveStatus: string;
    editable: boolean;
    parents: { campaign?: { id: string }; adSet?: { id: string } };
    metrics: { spend: number; results: number };
  }[];
  const idle = ads
    .filter((ad) => ad.metrics.spend > 0 && ad.metrics.results === 0)
    .sort((a, b) => b.metrics.spend - a.metrics.spend);
  const resume = new Set<string>();
  for (const account of new Set(idle.map((ad) => ad.adAccountId))) {
    const own = idle.filter((ad) => ad.adAccountId === account);
    if (own.some((ad) => ad.effectiveStatus === 'ACTIVE')) continue;
    // Paused itself or under a paused parent; not one held in review, archived or in an account that takes no writes.
    const paused = own.find((ad) => ad.editable && /^(PAUSED|ADSET_PAUSED|CAMPAIGN_PAUSED)$/.test(ad.effectiveStatus));
    if (!paused) continue;
    for (const id of [paused.parents.campaign?.id, paused.parents.adSet?.id, paused.id]) if (id) resume.add(id);
  }
  if (resume.size > 0) {
    const resumed = await request.post('/api/entities/actions', {
      headers: { authorization: `Bearer ${token}` },
      data: { items: [...resume].map((entityId) => ({ entityId, type: 'resume' })) },
    });
    expect(resumed.ok()).toBe(true);
    const outcomes = ((await resumed.json()) as { data: { outcome: string; code?: string }[] }).data;
    // A parent running already is refused (ALREADY_ACTIVE); the rest are resumed.
    expect(outcomes.filter((item) => item.outcome === 'applied').length).toBeGreaterThan(0);
    await syncAll(request, token);
  }
  await page.goto('/ai-studio');

  await askWasted(page);
  const first = page.getByTestId('ai-suggestion').first();
  await expect(first).toBeVisible();
  const name = (await first.getByRole('link').first().textContent())!.trim();
  const href = (await first.getByRole('link').first().getAttribute('href'))!;
  const entityId = href.split('/').at(-1)!;
  const change = (await first.getByTestId('ai-suggestion-change').textContent())!;
  const before = await api(request, token, `/api/entities/${entityId}`);

  // To the Inbox: a pending proposal of the person's, nothing changed at Meta.
  await first.getByRole('button', { name: 'Send to the Inbox' }).click();
  await expect(first.getByRole('status')).toHaveAttribute('data-outcome', 'proposed');
  await expect(first.getByRole('status')).toContainText('Sent to the Inbox for approval.');
  const pending = (await api(request, token, '/api/proposals?status=pending')) as {
    entity: { name: string };
    actor: { type: string };
  }[];
  expect(pending.filter((proposal) => proposal.entity.name === name && proposal.actor.type === 'person')).toHaveLength(
    1,
  );
  const unchanged = await api(request, token, `/api/entities/${entityId}`);
  expect([unchanged.status, unchanged.budget]).toEqual([before.status, before.budget]);
  await first.getByRole('link', { name: 'Open the Inbox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(name);

  // Asked again, the same change is suggested; confirmed, it is written through the ledger.
  await page.goto('/ai-studio');
  await page.getByRole('button', { name: 'New' }).click();
  await askWasted(page);
  const again = page.getByTestId('ai-suggestion').filter({ hasText: name });
  await expect(again.getByTestId('ai-suggestion-change')).toHaveText(change);
  await again.getByRole('button', { name: 'Confirm and apply' }).click();
  await expect(again.getByRole('status')).toHaveAttribute('data-outcome', 'applied');
  await expect(again.getByRole('status')).toContainText('Done: written to Meta through the ledger');
  const after = (await api(request, token, `/api/entities/${entityId}`)) as {
    history: { kind: string; status: string | null; actor: { type: string } }[];
  };
  expect(after.history).toContainEqual(
    expect.objectContaining({
      kind: 'manual_action',
      status: 'applied',
      actor: expect.objectContaining({ type: 'person' }),
    }),
  );
  await page.screenshot({ path: 'test-results/ai-suggestions/applied-en-1366.png', fullPage: true });
});
