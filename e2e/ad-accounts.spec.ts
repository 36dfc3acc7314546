import { expect, test, type Page } from '@playwright/test';
import { signInFreshUser } from './session.ts';

const CONNECTED = /^Successfully connected (\d+) ad accounts?!$/;
const CONNECT_FAILED = 'Failed to connect Facebook ad accounts. Please try again.';

async function openConsentScreen(page: Page): Promise<void> {
  await page.goto('/ad-accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Ad Accounts' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Facebook Ad Account' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue to Facebook' }).click();
  await expect(page).toHaveURL(/\/sandbox\/meta\/[^/]+\/dialog\/oauth/);
}

/** Connects the sandbox's ad accounts and returns how many the toast announced. */
async function connectAccounts(page: Page): Promise<number> {
  await openConsentScreen(page);
  await page.getByRole('button', { name: 'Allow' }).click();
  const toast = page.getByText(CONNECTED);
  await expect(toast).toBeVisible();
  const count = Number(CONNECTED.exec((await toast.textContent()) ?? '')?.[1]);
  expect(count).toBeGreaterThan(0);
  return count;
}

test.describe('Ad Accounts', () => {
  test.beforeEach(async ({ page, request }) => {
    await signInFreshUser(page, request, 'ads');
  });

  test('starts empty, then connects through the consent screen', async ({ page }) => {
    await page.goto('/ad-accounts');
    await expect(page.getByText('No Ad Accounts Connected')).toBeVisible();
    await expect(page.getByText('Connect your Facebook ad accounts to start automating your campaigns.')).toBeVisible();

    const count = await connectAccounts(page);

    await expect(page).toHaveURL(/\/ad-accounts$/);
    expect(new URL(page.url()).search).toBe('');
    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(count);
    const first = cards.first();
    await expect(first).toContainText('Account ID');
    await expect(first).toContainText('Currency');
    await expect(first).toContainText('Timezone');
    await expect(first).toContainText('Last Sync');
    await expect(first).toContainText(/Active|Inactive/);
    await expect(first.getByText('Sandbox')).toBeVisible();
    const link = first.getByRole('link', { name: 'View in Facebook' });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  test("an owner's system-user token form masks the token and says Meta's refusal in words (ADR 0192)", async ({
    page,
  }) => {
    await page.goto('/ad-accounts');
    await page.getByRole('button', { name: 'Connect with a system-user token' }).click();
    const field = page.getByLabel('System user access token');
    await expect(field).toHaveAttribute('type', 'password');
    await field.fill('EAASnot-a-real-token-at-all.signature');
    await page.getByRole('button', { name: 'Connect the accounts it reaches' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Facebook says this token is not valid' })).toBeVisible();
    await expect(page.getByText('No Ad Accounts Connected')).toBeVisible();
  });

  test('cancelling on the consent screen is a neutral notice, not a failure (ADR 0058)', async ({ page }) => {
    await openConsentScreen(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText(/^Connection cancelled\./)).toBeVisible();
    await expect(page.getByText(CONNECT_FAILED)).toHaveCount(0);
    await expect(page).toHaveURL(/\/ad-accounts$/);
    await expect(page.getByText('No Ad Accounts Connected')).toBeVisible();
  });

  test('Sync now refreshes Last Sync', async ({ page }) => {
    // Two background syncs (the one queued by connecting, then ours) run through the job queue in turn.
    test.slow();
    await connectAccounts(page);
    const card = page.getByRole('article').first();
    const name = (await card.getByRole('heading', { level: 3 }).textContent()) ?? '';
    const syncButton = card.getByRole('button', { name: 'Sync now' });
    const lastSync = card.locator('dt', { hasText: 'Last Sync' }).locator('xpath=following-sibling::dd[1]');
    // The connection queues a first sync; once it has settled the next one is ours.
    await expect(syncButton).toBeEnabled({ timeout: 20_000 });
    const before = (await lastSync.textContent()) ?? '';

    await syncButton.click();
    await expect(page.getByText(`${name} is up to date.`)).toBeVisible({ timeout: 20_000 });
    await expect(lastSync).not.toHaveText(before);
    await expect(lastSync).not.toHaveText('Never');
    await expect(syncButton).toBeEnabled();
  });

  test('Disconnect asks for confirmation and removes the card', async ({ page }) => {
    const count = await connectAccounts(page);
    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(count);
    const card = cards.first();
    const name = (await card.getByRole('heading', { level: 3 }).textContent()) ?? '';

    await card.getByRole('button', { name: 'Disconnect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Ad Account' });
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(cards).toHaveCount(count);

    await card.getByRole('button', { name: 'Disconnect' }).click();
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByText(`${name} was disconnected.`)).toBeVisible();
    await expect(page.getByRole('article', { name, exact: true })).toHaveCount(0);
    await expect(cards).toHaveCount(count - 1);
    if (count === 1) await expect(page.getByText('No Ad Accounts Connected')).toBeVisible();
  });
});
