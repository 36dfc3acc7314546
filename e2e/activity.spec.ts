import type { LogStats, Rule, RuleTemplate } from '@adpilot/contracts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';
import { winnersEveryDay } from './walk.ts';

/** An authenticated API call of the test's own user. */
async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const response = await request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), path).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

test('a rule action appears on the Activity page live, without a reload', async ({ page, request }) => {
  test.setTimeout(150_000);
  const session = await signInFreshUser(page, request, 'activity');
  const auth = { authorization: `Bearer ${session.token}` };
  await connectSandbox(page);

  await page.goto('/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity Log' })).toBeVisible();
  // The connection is already in the log, worded from its code.
  await expect(page.getByText(/^Connected ad account .+ \(\d+\)$/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Live' }).click();
  await expect(page.getByText('Live: new entries appear as they happen')).toBeVisible();
  // A marker on the window: it would be gone after any reload.
  await page.evaluate(() => Object.assign(globalThis, { __noReload: true }));

  // A rule from the scale-winners template, switched on and run now, through the API.
  const templates = await apiGet<RuleTemplate[]>(request, session.token, '/rules/templates');
  const template = templates.find((item) => item.id === 'scale_winners_roas');
  expect(template).toBeDefined();
  const created = await request.post('/api/rules', {
    headers: auth,
    // Written by the rule itself, not waiting in the Inbox: the entries below are its changes.
    data: { ...winnersEveryDay(template!.rule), mode: 'auto', name: 'Live scale winners', isActive: true },
  });
  expect(created.status()).toBe(201);
  const rule = ((await created.json()) as { data: Rule }).data;
  const run = await request.post(`/api/rules/${rule.id}/run`, { headers: auth });
  expect(run.ok()).toBeTruthy();

  const row = page.getByRole('row').filter({ hasText: /^.*Rule “Live scale winners”: raise the budget on “.+”/ });
  await expect(row.first()).toBeVisible({ timeout: 60_000 });
  await expect(row.first()).toContainText('Rule action');
  await expect(page.getByText(/Rule “Live scale winners” ran: \d+ evaluated/)).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => (globalThis as { __noReload?: boolean }).__noReload)).toBe(true);
});

test('the dashboard cards match the data', async ({ page, request }) => {
  test.setTimeout(120_000);
  const session = await signInFreshUser(page, request, 'dashboard');
  const auth = { authorization: `Bearer ${session.token}` };
  await connectSandbox(page);
  for (const description of ['first note', 'second <b>note</b>']) {
    expect((await request.post('/api/logs', { headers: auth, data: { description } })).status()).toBe(201);
  }
  const templates = await apiGet<RuleTemplate[]>(request, session.token, '/rules/templates');
  for (const [index, template] of templates.slice(0, 3).entries()) {
    const created = await request.post('/api/rules', {
      headers: auth,
      data: { ...template.rule, name: `Dashboard rule ${index}`, isActive: index < 2 },
    });
    expect(created.status()).toBe(201);
  }

  await page.goto('/dashboard');
  const accounts = await apiGet<unknown[]>(request, session.token, '/ad-accounts');
  const rules = await apiGet<Rule[]>(request, session.token, '/rules');
  const stats = await apiGet<LogStats>(request, session.token, '/logs/stats');
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const today = await apiGet<LogStats>(
    request,
    session.token,
    `/logs/stats?from=${encodeURIComponent(midnight.toISOString())}`,
  );
  const card = (label: string) =>
    page.locator('p', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::p[1]');
  expect(stats.total).toBeGreaterThan(2);
  await expect(card('Active Rules')).toHaveText(String(rules.filter((rule) => rule.isActive).length));
  await expect(card('Ad Accounts')).toHaveText(String(accounts.length));
  await expect(card('Total Actions')).toHaveText(stats.total.toLocaleString('en-US'));
  await expect(card('Actions Today')).toHaveText(today.total.toLocaleString('en-US'));

  const recent = page.getByRole('list', { name: 'Recent Activity' });
  await expect(recent.getByRole('listitem')).toHaveCount(Math.min(5, stats.total));
  // Newest first: the rules' "created" entries, signed by their author, then the notes (their markup shown as text).
  await expect(recent.getByRole('listitem').first()).toContainText('Created rule “Dashboard rule 2”');
  await expect(recent.getByRole('listitem').first()).toContainText('by dashboard tester');
  await expect(recent.getByRole('listitem').nth(3)).toContainText('second <b>note</b>');

  await page.getByRole('link', { name: /Create Rule/ }).click();
  await expect(page).toHaveURL(/\/rules\/new$/);
});
