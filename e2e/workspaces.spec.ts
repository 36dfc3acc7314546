import type { Rule } from '@adpilot/contracts';
import { expect, test, type Page } from '@playwright/test';
import { signInFreshUser } from './session.ts';
import { chooseLanguage, invitationPath } from './walk.ts';

/*
 * A workspace shared by invitation (ADRs 0070 and 0071): the owner invites a viewer from the Members page, the
 * viewer signs up through the mailed link, reads but cannot change, and is gone at once when the owner removes them.
 * The UI is the subject where people use it; the API sets up and checks the rest.
 */

const PASSWORD = 'Sandbox-Pass1';

/** The bearer token the page stored, to call the API as the same user. */
async function storedToken(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem(
        'token',
      ) ?? '',
  );
}

/** A rule that needs no ad account to be saved. */
const stopLoss = (name: string) => ({
  name,
  description: '',
  isActive: true,
  scope: { adAccountIds: [], level: 'ad' },
  conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }] },
  actions: [{ type: 'pause' }],
  schedule: { everyMinutes: 60 },
  safeguards: {},
});

test('an invited viewer reads the workspace, cannot change it, and is out at once when removed', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await signInFreshUser(page, request, 'owner');
  const ownerAuth = { authorization: `Bearer ${owner.token}` };
  // The free plan's one seat is the owner's: Pro has three.
  expect((await request.post('/api/subscription/upgrade', { headers: ownerAuth, data: { planId: 'pro' } })).ok()).toBe(
    true,
  );
  const workspaces = await request.get('/api/workspaces', { headers: ownerAuth });
  const shared = ((await workspaces.json()) as { data: { id: string; personal: boolean }[] }).data.find(
    (workspace) => workspace.personal,
  )!;
  const created = await request.post('/api/rules', { headers: ownerAuth, data: stopLoss('Shared stop loss') });
  expect(created.status()).toBe(201);
  const rule = ((await created.json()) as { data: Rule }).data;

  const viewerName = 'Vera Viewer';
  const viewerEmail = `viewer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  await test.step('the owner invites a viewer from the Members page', async () => {
    await page.goto('/members');
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await page.getByLabel('Email address').fill(viewerEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${viewerEmail}`)).toBeVisible();
    await expect(page.getByRole('button', { name: `Revoke the invitation to ${viewerEmail}` })).toBeVisible();
  });

  const link = await invitationPath(request, viewerEmail);
  const viewerContext = await browser.newContext();
  // The rules pages speak Thai until a language is chosen: this viewer chose English.
  await chooseLanguage(viewerContext, 'en');
  const viewer = await viewerContext.newPage();

  await test.step('the invitee signs up through the invitation page and lands in the workspace', async () => {
    await viewer.goto(link);
    await expect(viewer.getByText(`You are invited to join ${owner.user.name}'s workspace as Viewer.`)).toBeVisible();
    await viewer.getByRole('link', { name: 'Create account' }).click();
    await viewer.getByLabel('Full name').fill(viewerName);
    await viewer.getByLabel('Email').fill(viewerEmail);
    await viewer.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await viewer.getByLabel('Confirm password').fill(PASSWORD);
    await viewer.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
    await viewer.getByRole('button', { name: 'Create Account' }).click();
    await expect(viewer).toHaveURL(/\/invitations\/accept\?token=/);
    await viewer.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(viewer).toHaveURL(/\/dashboard$/);
    await expect(viewer.getByRole('button', { name: /Switch workspace/ })).toContainText(
      `${owner.user.name}'s workspace`,
    );
    await expect(viewer.getByRole('button', { name: /Switch workspace/ })).toContainText('Viewer');
  });

  await test.step('the viewer reads the rules and the log, with nothing that changes them', async () => {
    await viewer.goto('/rules');
    const card = viewer.getByRole('article', { name: 'Shared stop loss' });
    await expect(card).toBeVisible();
    await expect(viewer.getByRole('note')).toContainText('Viewers can look but not change anything');
    await expect(viewer.getByRole('link', { name: 'Create New Rule' })).toHaveCount(0);
    await expect(card.getByRole('button')).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /Run now|Deactivate|Activate|Delete/ })).toHaveCount(0);

    await viewer.goto('/activity');
    const row = viewer.getByRole('row').filter({ hasText: 'Created rule “Shared stop loss”' });
    await expect(row).toBeVisible();
    await expect(row).toContainText(`by ${owner.user.name}`);
  });

  const viewerToken = await storedToken(viewer);
  const asViewer = { authorization: `Bearer ${viewerToken}`, 'x-workspace-id': shared.id };

  await test.step('a write through the API with the workspace header is refused', async () => {
    const refused = await request.post('/api/rules', { headers: asViewer, data: stopLoss('Not allowed') });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('FORBIDDEN');
    expect((await request.post(`/api/rules/${rule.id}/run`, { headers: asViewer })).status()).toBe(403);
    expect((await request.post(`/api/rules/${rule.id}/toggle`, { headers: asViewer })).status()).toBe(403);
    // Reading is what a viewer may do.
    expect((await request.get(`/api/rules/${rule.id}`, { headers: asViewer })).status()).toBe(200);
  });

  await test.step('the owner removes the viewer; the viewer is out at once', async () => {
    await page.reload();
    await page.getByRole('button', { name: `Remove ${viewerName}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`${viewerName} was removed`)).toBeVisible();

    expect((await request.get('/api/rules', { headers: asViewer })).status()).toBe(404);
    // The viewer's tab is still on the workspace's Activity page: reloading it falls back to their own workspace.
    await viewer.reload();
    await expect(viewer.getByRole('button', { name: /Switch workspace/ })).toContainText('Personal');
    await expect(viewer.getByRole('button', { name: /Switch workspace/ })).toContainText('Owner');
    await expect(viewer.getByText('Created rule “Shared stop loss”')).toHaveCount(0);
    await viewer.goto('/rules');
    await expect(viewer.getByRole('link', { name: 'Create New Rule' }).first()).toBeVisible();
    await expect(viewer.getByRole('article', { name: 'Shared stop loss' })).toHaveCount(0);
  });
  await viewerContext.close();
});
