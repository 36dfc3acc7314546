import type { ActivityLog, EntityHistoryItem, EntityRow, Session } from '@adpilot/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

/*
 * The explorer in the browser (issue 28): the connected sandbox's campaigns with their figures, an entity's page
 * with its parents, a manual pause confirmed with from → to, written to Meta once, logged with the person as actor
 * and reverted from the entity page (the sandbox's Ads Manager says ACTIVE again), and at 390 px
 * cards without sideways scrolling.
 */

type Bearer = { authorization: string };

async function entities(request: APIRequestContext, auth: Bearer, query: string): Promise<EntityRow[]> {
  const response = await request.get(`/api/entities?${query}`, { headers: auth });
  expect(response.ok(), `GET /api/entities?${query}: ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { data: EntityRow[] }).data;
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const view = globalThis as unknown as {
      innerWidth: number;
      document: { documentElement: { scrollWidth: number } };
    };
    return view.document.documentElement.scrollWidth - view.innerWidth;
  });
}

let session: Session;
let auth: Bearer;

test.beforeEach(async ({ page, request }) => {
  test.setTimeout(120_000);
  session = await signInFreshUser(page, request, 'explorer');
  auth = { authorization: `Bearer ${session.token}` };
  await connectSandbox(page);
  // The first sync (90 days backfilled) must have landed before the table has anything to show.
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/ad-accounts', { headers: auth });
        const accounts = ((await response.json()) as { data: { sync_status: string; last_sync: string | null }[] })
          .data;
        return accounts.length > 0 && accounts.every((account) => account.sync_status === 'idle' && account.last_sync);
      },
      { timeout: 90_000, message: 'the sandbox accounts synced once' },
    )
    .toBeTruthy();
});

test('lists the campaigns, opens an ad set with its parents, and asks before pausing it', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Campaigns' });
  await expect(table.getByRole('rowheader').first()).toBeVisible({ timeout: 30_000 });
  // A total per currency: the sandbox's accounts are in THB and USD.
  await expect(table.getByRole('rowheader', { name: /^Total THB/ })).toBeVisible();

  const [adSet] = await entities(request, auth, 'level=adset&status=ACTIVE&sort=-spend&limit=1');
  expect(adSet, 'an active sandbox ad set').toBeDefined();
  await page.getByLabel('Show', { exact: true }).selectOption('adset');
  await page.getByLabel('Search by name').fill(adSet!.name);
  const link = table.getByRole('link', { name: adSet!.name, exact: true }).first();
  await expect(link).toBeVisible({ timeout: 20_000 });
  await page.goto(`/campaigns/${adSet!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: adSet!.name })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Where it sits' });
  await expect(crumbs.getByRole('link', { name: adSet!.parents.campaign!.name })).toBeVisible();
  await expect(page.getByTestId('entity-chart')).toBeVisible({ timeout: 20_000 });

  // The confirmation shows from → to as the server read it live, and Cancel writes nothing.
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  const question = page.getByRole('dialog', { name: 'Pause this?' });
  await expect(question.getByText('Active', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(question.getByText('Paused', { exact: true })).toBeVisible();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  const [unchanged] = (
    await entities(request, auth, `level=adset&q=${encodeURIComponent(adSet!.name)}&limit=50`)
  ).filter((row) => row.id === adSet!.id);
  expect(unchanged?.status).toBe('ACTIVE');
});

/** The sandbox's Ads Manager (what "View in Facebook" opens) on the account of `row`: its status cell for the row. */
async function adsManagerStatus(
  page: Page,
  request: APIRequestContext,
  auth: Bearer,
  row: EntityRow,
): Promise<ReturnType<Page['getByRole']>> {
  const response = await request.get('/api/ad-accounts', { headers: auth });
  const accounts = ((await response.json()) as { data: { id: string; ads_manager_url: string | null }[] }).data;
  const url = accounts.find((account) => account.id === row.adAccountId)?.ads_manager_url;
  expect(url, "the ad set's account links to the sandbox's Ads Manager").toBeTruthy();
  await page.goto(url!);
  await expect(page).toHaveURL(/\/adsmanager\?act=/);
  const line = page.getByRole('row').filter({ has: page.getByRole('cell', { name: row.externalId, exact: true }) });
  await expect(line).toHaveCount(1);
  // Name, level, effective status, budget, id, edit.
  return line.getByRole('cell').nth(2);
}

test('pauses an ad set by hand once, with the person as the actor in Activity, and reverts it', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  // Pause and resume have no limit of the hour or of the day's spend (a budget cut has): any running ad set of an
  // account that takes writes (not the world's disabled or unsettled ones) does, at any hour.
  const adSet = (await entities(request, auth, 'level=adset&status=ACTIVE&sort=-spend&limit=50')).find(
    (row) => row.editable,
  );
  expect(adSet, 'an active sandbox ad set that takes writes').toBeDefined();
  const manager = await context.newPage();
  const metaStatus = await adsManagerStatus(manager, request, auth, adSet!);
  await expect(metaStatus).toHaveText('ACTIVE');

  await page.goto(`/campaigns/${adSet!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: adSet!.name })).toBeVisible();
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Pause this?' });
  await expect(dialog.getByText('Active', { exact: true })).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Pause now' }).click();
  const outcome = page.getByRole('dialog', { name: 'What happened' });
  await expect(outcome.getByRole('status')).toHaveText('1 done, 0 refused', { timeout: 20_000 });
  await outcome.getByRole('button', { name: 'Close' }).first().click();

  const [after] = await entities(request, auth, `level=adset&q=${encodeURIComponent(adSet!.name)}&limit=50`).then(
    (rows) => rows.filter((row) => row.id === adSet!.id),
  );
  expect(after?.status).toBe('PAUSED');
  await manager.reload();
  await expect(metaStatus).toHaveText('PAUSED');
  // The person is the actor in Activity.
  const logs = await request.get('/api/logs?limit=20', { headers: auth });
  const entries = ((await logs.json()) as { data: { logs: ActivityLog[] } }).data.logs;
  expect(
    entries.some((entry) => entry.actor?.id === session.user.id && entry.description.includes(adSet!.name)),
    'an activity entry of the pause, signed by the person',
  ).toBeTruthy();

  // Written once: one change by hand in the entity's history, and it is the one the page offers to revert.
  const detail = await request.get(`/api/entities/${adSet!.id}`, { headers: auth });
  const history = ((await detail.json()) as { data: { history: EntityHistoryItem[] } }).data.history;
  const byHand = history.filter((item) => item.kind === 'manual_action');
  expect(byHand.map((item) => [item.type, item.status, item.revertible])).toEqual([['pause', 'applied', true]]);

  // Reverted from the entity page: the sandbox says ACTIVE again, and the history says reverted.
  const line = page.getByRole('listitem').filter({ hasText: 'By hand' });
  await expect(line).toHaveCount(1, { timeout: 20_000 });
  await line.getByRole('button', { name: 'Revert' }).click();
  const question = page.getByRole('dialog', { name: 'Set the previous value back?' });
  await expect(question).toContainText('Paused → Active');
  await question.getByRole('button', { name: 'Revert', exact: true }).click();
  await expect(page.getByText('Reverted: the previous value is back at Meta')).toBeVisible({ timeout: 20_000 });
  await expect(line).toContainText('Reverted');
  await expect(line.getByRole('button', { name: 'Revert' })).toHaveCount(0);
  await manager.reload();
  await expect(metaStatus).toHaveText('ACTIVE');
  const [resumed] = await entities(request, auth, `level=adset&q=${encodeURIComponent(adSet!.name)}&limit=50`).then(
    (rows) => rows.filter((row) => row.id === adSet!.id),
  );
  expect(resumed?.status).toBe('ACTIVE');
});

test('at 390 px the table becomes cards with the key figures, and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  const card = page.getByRole('article').first();
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText('ROAS')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(await sidewaysOverflow(page)).toBe(0);
});
