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

// Issue 29, ADR 0156: a change the assistant suggests is changed only when the person confirms it in the AI studio,
// through the explorer's manual actions as themselves: sent to the Inbox, or applied through the ledger.
// Held back (fixme) until the spec can ask the sandbox for a world that has a running ad with spend and no results:
// in a random world the answered account may have none the analyst may suggest pausing (its effective status is read
// from the mirror, which a resume by hand does not update until the next sync), and it failed 3 of 4 runs. The same
// path is held server-side: assistant.model.test.ts and assistant.suggestions.test.ts (a suggestion sent to the
// Inbox waits pending, nothing written to Meta; one confirmed is applied through the ledger).
test.fixme('a suggested change is sent to the Inbox, then confirmed and applied, from the AI studio', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
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
  // The analyst suggests pausing only what runs (its effective status: the ad, its ad set and its campaign active):
  // the biggest ads that spent with nothing to show and were paused since, or sit under a paused parent (some worlds
  // have only those), are resumed first with their parents, as a person would in the explorer. Ten of them, so an
  // account the analyst answers for keeps one whatever the world.
  const ads = (await api(request, token, '/api/entities?level=ad&window=last_30d&limit=500')) as {
    id: string;
    effectiveStatus: string;
    parents: { campaign?: { id: string }; adSet?: { id: string } };
    metrics: { spend: number; results: number };
  }[];
  const idle = ads
    .filter((ad) => ad.metrics.spend > 0 && ad.metrics.results === 0)
    .sort((a, b) => b.metrics.spend - a.metrics.spend)
    .slice(0, 10)
    .filter((ad) => ad.effectiveStatus !== 'ACTIVE');
  const resume = [
    ...new Set(idle.flatMap((ad) => [ad.parents.campaign?.id, ad.parents.adSet?.id, ad.id].filter((id) => id))),
  ];
  if (resume.length > 0) {
    const resumed = await request.post('/api/entities/actions', {
      headers: { authorization: `Bearer ${token}` },
      data: { items: resume.map((entityId) => ({ entityId, type: 'resume' })) },
    });
    // A read-only account refuses its items; the others apply (or were running already).
    expect(resumed.ok()).toBe(true);
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
