import { expect, test } from '@playwright/test';
import { signInFreshUser } from './session.ts';

const CONNECTED = /^Successfully connected (\d+) ad accounts?!$/;

test.describe('Reports', () => {
  test.beforeEach(async ({ page, request }) => {
    await signInFreshUser(page, request, 'reports');
  });

  test('shows the chart and the table for a connected sandbox account', async ({ page }) => {
    // Connecting queues the first sync, which mirrors the sandbox's daily insights through the job queue.
    test.slow();
    await page.goto('/ad-accounts');
    await page.getByRole('button', { name: 'Connect Account' }).click();
    await page
      .getByRole('dialog', { name: 'Connect Facebook Ad Account' })
      .getByRole('button', { name: 'Continue to Facebook' })
      .click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByText(CONNECTED)).toBeVisible();
    const card = page.getByRole('article').first();
    const accountName = ((await card.getByRole('heading', { level: 3 }).textContent()) ?? '').trim();
    await expect(card.getByRole('button', { name: 'Sync now' })).toBeEnabled({ timeout: 30_000 });

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const chart = page.getByRole('img', { name: 'Spend per day' });
    await expect(chart).toBeVisible({ timeout: 15_000 });
    // recharts drew a line for the account.
    await expect(chart.locator('.recharts-line-curve').first()).toBeVisible();

    const table = page.getByRole('table');
    const row = table.getByRole('row').filter({ hasText: accountName });
    await expect(row).toBeVisible();
    const currency = ((await row.getByRole('cell').nth(1).textContent()) ?? '').trim();
    expect(currency).toMatch(/^[A-Z]{3}$/);

    // Another metric redraws the chart; one campaign per row when asked per campaign.
    await page.getByRole('group', { name: 'Metric shown' }).getByRole('button', { name: 'ROAS' }).click();
    await expect(page.getByRole('img', { name: 'ROAS per day' })).toBeVisible();
    await page.getByLabel('Per', { exact: true }).selectOption('campaign');
    await expect(table.getByRole('row').filter({ hasText: accountName }).first()).toBeVisible();
    // The per-account table stays shown while the per-campaign one loads: wait for the campaigns' rows.
    await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(2);

    // A range ending before it starts is explained, in the page's words.
    await page.getByLabel('From', { exact: true }).fill('2026-03-10');
    await page.getByLabel('To', { exact: true }).fill('2026-03-01');
    await expect(page.getByRole('alert')).toHaveText('The start date must not be after the end date');
  });
});
