import { expect, test } from '@playwright/test';

/*
 * `/login?next=…` names the page to open after signing in. A value that URL parsing turns into another host (a tab
 * or newline dropped, a backslash read as a slash) once crashed the app after sign-in ("Something went wrong"): each
 * now leads to the dashboard, in the browser that parses it, and a path of the app is still honoured.
 */
const PASSWORD = 'Abcdefg1';

const uniqueEmail = () => `next-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

for (const next of ['/%09/evil.example', '/%0A/evil.example', '/%5C/evil.example', '//evil.example']) {
  test(`signing in from /login?next=${next} opens the dashboard`, async ({ page }) => {
    const email = uniqueEmail();
    const made = await page.request.post('/api/auth/register', {
      data: { name: 'Next Visitor', email, password: PASSWORD },
    });
    expect(made.ok()).toBe(true);
    await page.goto(`/login?next=${next}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL('/dashboard');
    await expect(page.getByRole('heading', { name: 'Welcome back, Next Visitor!' })).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
  });
}

test('signing in from /login?next=/rules opens the rules', async ({ page }) => {
  const email = uniqueEmail();
  expect(
    (await page.request.post('/api/auth/register', { data: { name: 'Rule Visitor', email, password: PASSWORD } })).ok(),
  ).toBe(true);
  await page.goto('/login?next=%2Frules');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/rules');
});
