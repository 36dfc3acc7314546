import { expect, test } from '@playwright/test';
import { signInAdmin, signInFreshUser } from './session.ts';

test('a member sees the administrators-only screen', async ({ page, request }) => {
  await signInFreshUser(page, request, 'member');
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Administrators only' })).toBeVisible();
});

test("signed out after setup, the Test page says the tests are the administrator's", async ({ page }) => {
  // The e2e server registers its administrator before any test runs: the instance is past its first run.
  await page.goto('/test');
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'ok');
  const refusal = page.getByTestId('admin-only');
  await expect(refusal.getByRole('heading', { name: "The tests are the administrator's" })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run All Tests' })).toHaveCount(0);
  await expect(page.getByTestId('environment')).toHaveCount(0);
  await refusal.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Ftest$/);
});

test("the Test page's Run All Tests passes on the embedded default for the administrator", async ({
  page,
  request,
}) => {
  await signInAdmin(page, request);
  await page.goto('/test');
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByTestId('environment')).toContainText('Embedded (PGlite)');
  await page.getByRole('button', { name: 'Run All Tests' }).click();
  for (const test of ['database', 'auth', 'rls', 'registration'])
    await expect(page.getByTestId(`result-${test}`)).toHaveAttribute('data-status', 'passed', { timeout: 20_000 });
  // Until billing adds the plans table this one says so as a warning; it never fails.
  await expect(page.getByTestId('result-database-access')).toHaveAttribute('data-status', /passed|warning/);
  await expect(page.locator('[data-status="failed"]')).toHaveCount(0);
});

test("a member sees that the Test page is the administrator's", async ({ page, request }) => {
  await signInFreshUser(page, request, 'member');
  await page.goto('/test');
  await expect(page.getByTestId('admin-only')).toContainText('You are signed in with another account');
});
