import type { AdAccount, Proposal, RuleRun } from '@adpilot/contracts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

type Bearer = { authorization: string };

async function api<T>(request: APIRequestContext, auth: Bearer, method: 'GET' | 'POST', path: string, data?: object) {
  const response = await request.fetch(`/api${path}`, { method, headers: auth, ...(data ? { data } : {}) });
  expect(response.ok(), `${method} ${path}: ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

test('a rule that asks first: its change waits in the Inbox and is written once approved', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const session = await signInFreshUser(page, request, 'inbox');
  const auth = { authorization: `Bearer ${session.token}` };
  await connectSandbox(page);
  const [account] = (await api<AdAccount[]>(request, auth, 'GET', '/ad-accounts')).filter(
    (item) => item.currency === 'THB',
  );
  expect(account, 'the sandbox’s THB account').toBeDefined();

  // One proposal (one action a day): lower one ad set's budget by 1%, in this user's own sandbox world.
  const rule = await api<{ id: string }>(request, auth, 'POST', '/rules', {
    name: 'Trim one budget',
    isActive: false,
    mode: 'approve',
    scope: { adAccountIds: [account!.id], level: 'adset', statuses: ['ACTIVE'] },
    conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
    actions: [{ type: 'decrease_budget', by: 1, unit: 'percent' }],
    schedule: { everyMinutes: 60 },
    safeguards: { cooldownHours: 0, maxActionsPerDay: 1, minSpend: 0, minImpressions: 0, settleHours: 0 },
  });
  // Run now from the rule's page says what the run did, in words, with the way to the Inbox.
  await page.evaluate(() => {
    (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
      'language',
      'en',
    );
  });
  await page.goto(`/rules/${rule.id}`);
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Run now' }).click();
  const outcome = page.getByRole('status').filter({ hasText: /1 change waits for your approval/ });
  await expect(outcome).toBeVisible({ timeout: 60_000 });
  await expect(outcome).toContainText('“Trim one budget”:');
  const [proposal] = await api<Proposal[]>(request, auth, 'GET', '/proposals');
  expect(proposal).toBeDefined();
  await outcome.getByRole('link', { name: 'Open the Inbox' }).click();
  await expect(page).toHaveURL('/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(page.getByRole('navigation').getByLabel('1 waiting for approval')).toBeVisible();
  const group = page.getByRole('region', { name: 'Trim one budget' });
  await expect(group.getByText(`“${proposal!.target.name}”`, { exact: false })).toBeVisible();
  await expect(group.getByText(/^Expires in /)).toBeVisible();

  await group.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this change?' });
  await expect(dialog.getByText('This will change the live ad:')).toBeVisible();
  await dialog.getByRole('button', { name: 'Approve and apply' }).click();
  await expect(page.getByText('Approved: the change was sent to Meta')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Nothing waits for approval')).toBeVisible();
  // The history keeps it, with who decided.
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.getByText(`“${proposal!.target.name}”`, { exact: false })).toBeVisible();
  await expect(history.getByText(`Approved by ${session.user.name} · `, { exact: false })).toBeVisible();

  const [run] = await api<RuleRun[]>(request, auth, 'GET', `/rules/${rule.id}/runs`);
  expect(run?.actions.map((action) => action.status)).toEqual(['applied']);
});
