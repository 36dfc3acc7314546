import { expect, test, type Page } from '@playwright/test';

/** A fresh user who never chose a language, signed in through the form and left on the dashboard. */
async function signInFreshUser(page: Page): Promise<void> {
  const email = `lang-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'Language-Pass1';
  const response = await page.request.post('/api/auth/register', {
    data: { name: 'Language Tester', email, password },
  });
  expect(response.ok()).toBeTruthy();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/dashboard');
}

test("a first visit is in the browser's language on every page, and the page mix is a choice", async ({ page }) => {
  await signInFreshUser(page);
  const sidebar = page.locator('#app-sidebar');
  const picker = sidebar.getByRole('combobox', { name: 'Language' });
  // An English browser (the suite's en-US) reads Rules and Subscription in English too.
  await expect(picker.locator('option:checked')).toHaveText('English');
  await sidebar.getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Automation Rules' })).toBeVisible();
  await sidebar.getByRole('link', { name: 'Subscription' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription' })).toBeVisible();

  // "Page default" is the mix, chosen: Rules Thai inside an English shell.
  await picker.selectOption('auto');
  await sidebar.getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'กฎอัตโนมัติ' })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Subscription' })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await picker.selectOption('en');
  await expect(page.getByRole('heading', { level: 1, name: 'Automation Rules' })).toBeVisible();

  await picker.selectOption('th');
  await expect(sidebar.getByRole('link', { name: 'แผนการใช้งาน' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'กฎอัตโนมัติ' })).toBeVisible();

  // The choice is the user's: it holds on an English-by-default page and after a reload.
  await sidebar.getByRole('link', { name: 'แดชบอร์ด' }).click();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  await expect(sidebar.getByRole('button', { name: 'ออกจากระบบ' })).toBeVisible();
});

test.describe('a Thai phone', () => {
  test.use({ locale: 'th-TH', viewport: { width: 390, height: 844 } });

  test('lands in Thai with the language switch in reach, and signs in to a Thai app', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'th');
    await expect(page.getByRole('link', { name: 'เข้าสู่ระบบ' })).toBeVisible();
    const picker = page.getByRole('combobox', { name: 'ภาษา' });
    await expect(picker).toBeVisible();
    await expect(picker.locator('option:checked')).toHaveText('ไทย');
    await picker.selectOption('en');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('th');

    for (const path of ['/login', '/register', '/forgot-password', '/terms']) {
      await page.goto(path);
      await expect(page.getByRole('combobox', { name: 'ภาษา' }), path).toBeVisible();
      await expect(page.locator('html'), path).toHaveAttribute('lang', 'th');
    }

    const email = `lang-th-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const registered = await page.request.post('/api/auth/register', {
      data: { name: 'Thai Shop', email, password: 'Language-Pass1' },
    });
    expect(registered.ok()).toBeTruthy();
    await page.goto('/login');
    await page.getByLabel('อีเมล').fill(email);
    await page.getByLabel('รหัสผ่าน', { exact: true }).fill('Language-Pass1');
    await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await expect(page).toHaveURL('/dashboard');
    // Every page in Thai, the ad accounts page as much as Rules; the menu holds the switch on a phone.
    await page.goto('/ad-accounts');
    await expect(page.getByRole('heading', { level: 1, name: 'บัญชีโฆษณา' })).toBeVisible();
    await page.getByRole('button', { name: 'เปิดเมนู' }).click();
    await expect(page.locator('#app-sidebar').getByRole('combobox', { name: 'ภาษา' })).toBeVisible();
  });
});

test("a server error lands on its field in the user's language, by its code", async ({ page }) => {
  const email = `taken-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const taken = await page.request.post('/api/auth/register', {
    data: { name: 'First Owner', email, password: 'Language-Pass1' },
  });
  expect(taken.ok()).toBeTruthy();

  await page.goto('/register');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('th');
  await page.getByLabel('ชื่อ-นามสกุล').fill('Second Owner');
  await page.getByLabel('อีเมล').fill(email);
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill('Language-Pass1');
  await page.getByLabel('ยืนยันรหัสผ่าน').fill('Language-Pass1');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'สร้างบัญชี' }).click();
  // On the field, and in the toast (spec §8: the server's message, worded here by its code).
  await expect(page.locator('p[id$="-email-error"]')).toHaveText('อีเมลนี้มีบัญชีอยู่แล้ว');
  await expect(page.getByRole('status').filter({ hasText: 'อีเมลนี้มีบัญชีอยู่แล้ว' })).toBeVisible();
  await expect(page.getByText('An account with this email already exists')).toHaveCount(0);
  await expect(page).toHaveURL('/register');
});
