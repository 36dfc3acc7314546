import { expect, test, type Page } from '@playwright/test';

/*
 * Watch Demo as a visitor meets it (issue 33, ADR 0185): no sign-up, the demo workspace's dashboard with figures, the
 * Inbox with proposals and no way to decide them, a rule that acted, the banner on every page at a laptop's and a
 * phone's width in English and Thai, and the banner's way to an account of one's own.
 */

const BANNER = {
  en: {
    label: 'Demo',
    text: 'You are looking around a read-only demo with sample data',
    register: 'Create your free account',
  },
  th: { label: 'เดโม', text: 'คุณกำลังดูเดโมแบบอ่านอย่างเดียว', register: 'สร้างบัญชีฟรีของคุณ' },
} as const;

async function chooseLanguage(page: Page, language: 'en' | 'th'): Promise<void> {
  await page.evaluate((choice) => {
    (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
      'language',
      choice,
    );
  }, language);
}

function banner(page: Page, language: 'en' | 'th') {
  return page.getByRole('complementary', { name: BANNER[language].label });
}

test('Watch Demo: the read-only demo workspace, its banner on every page, and sign-up from it', async ({ page }) => {
  // The instance's first visit waits for the demo to be built (the queue's job): a minute at most.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/');
  await chooseLanguage(page, 'en');
  await page.reload();
  await expect(page.getByText('© 2024 AdPilot. All rights reserved.')).toBeVisible();
  await page.getByRole('button', { name: 'Watch Demo' }).click();
  await expect(page).toHaveURL('/dashboard', { timeout: 90_000 });

  // The dashboard with figures: the overview's spend and the rules' month.
  await expect(banner(page, 'en')).toContainText(BANNER.en.text);
  await expect(page.getByRole('heading', { level: 1, name: /Demo visitor/ })).toBeVisible();
  await expect(page.getByText('What your rules did this month')).toBeVisible();
  await expect(page.getByText('No spend or results in the last', { exact: false })).toHaveCount(0);

  // The Inbox with proposals, which a visitor reads but cannot decide.
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  const group = page.getByRole('region', { name: 'Trim budgets, ask me first' });
  await expect(group).toBeVisible();
  await expect(group.getByText(/^Expires in /).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reject', exact: true })).toHaveCount(0);
  await expect(banner(page, 'en')).toBeVisible();

  // A rule that acted.
  await page.goto('/rules');
  const scaled = page.getByText('Scale ad sets that keep spending');
  await expect(scaled.first()).toBeVisible();
  await expect(page.getByText(/Last triggered/).first()).toBeVisible();
  await expect(banner(page, 'en')).toBeVisible();

  // Every page carries the banner, at both widths and in both languages.
  for (const language of ['en', 'th'] as const) {
    await chooseLanguage(page, language);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const path of ['/dashboard', '/ad-accounts', '/rules', '/inbox', '/reports', '/activity', '/subscription']) {
        await page.goto(path);
        const shown = banner(page, language);
        await expect(shown, `${language} ${width} ${path}`).toContainText(BANNER[language].text);
        await expect(shown.getByRole('button', { name: BANNER[language].register })).toBeInViewport();
      }
    }
  }

  // Register from the banner: the demo session ends, the sign-up form opens, the new account is one's own.
  await chooseLanguage(page, 'en');
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/dashboard');
  await banner(page, 'en').getByRole('button', { name: BANNER.en.register }).click();
  await expect(page).toHaveURL('/register');
  await page.getByLabel('Full name').fill('Demo Convert');
  await page.getByLabel('Email').fill(`demo-convert-${Date.now()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('Demo-Convert-Pass1');
  await page.getByLabel('Confirm password').fill('Demo-Convert-Pass1');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Demo Convert!' })).toBeVisible();
  await expect(banner(page, 'en')).toHaveCount(0);
});
