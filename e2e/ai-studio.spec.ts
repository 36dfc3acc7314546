import { expect, test } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

test('AI Studio on the built-in advisor: every tab used as a new user would', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInFreshUser(page, request, 'ai');
  await connectSandbox(page);

  await page.goto('/ai-studio');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Studio' })).toBeVisible();
  await expect(page.getByTestId('ai-usage-count')).toBeVisible();

  // Assistant: blank cannot be sent; the question is cleared and the answer shown.
  const ask = page.getByRole('button', { name: 'Get AI Advice' });
  await expect(ask).toBeDisabled();
  const question = page.getByLabel('Your question');
  await question.fill('How can I improve my CTR?');
  await ask.click();
  await expect(question).toHaveValue('');
  await expect(page.getByTestId('ai-response')).toContainText('clicks ÷ impressions');
  await expect(page.getByText('AI response generated!')).toBeVisible();
  await question.fill('What is a good ROAS?');
  await ask.click();
  await expect(page.getByTestId('ai-response')).toContainText('ROAS');

  // Analysis: the spec's messages, then the connected account's last 7 days analysed.
  await page.getByRole('tab', { name: 'Performance Analysis' }).click();
  await page.getByRole('button', { name: 'Analyze Performance' }).click();
  await expect(page.getByText('Please enter campaign data')).toBeVisible();
  await page.getByLabel('Campaign data (JSON)').fill('{ spend: 100');
  await page.getByRole('button', { name: 'Analyze Performance' }).click();
  await expect(page.getByText('Please enter valid JSON data')).toBeVisible();
  await page.getByRole('button', { name: "Use my account's last 7 days" }).click();
  await expect(page.getByLabel('Campaign data (JSON)')).toHaveValue(/"impressions": \d+/);
  await page.getByRole('button', { name: 'Analyze Performance' }).click();
  await expect(page.getByText('Campaign analysis completed!')).toBeVisible();
  const items = page.getByTestId('analysis-item');
  await expect(items.first()).toBeVisible();
  await expect(items.first()).toContainText(/CTR|CPC|CPM|CPA|ROAS|Frequency|benchmark/);

  // Content: Instagram copy, numbered, copied to the clipboard.
  await page.getByRole('tab', { name: 'Content Studio' }).click();
  await page.getByLabel('Platform').selectOption('instagram');
  await page
    .getByLabel('Product information (JSON)')
    .fill('{"name": "Glow Serum", "benefit": "Hydrates all day", "offer": "20% off this week"}');
  await page.getByRole('button', { name: 'Generate Ad Copy' }).click();
  await expect(page.getByText('Ad copy generated!')).toBeVisible();
  const variations = page.getByTestId('ad-copy-variation');
  await expect(variations).toHaveCount(3);
  await expect(variations.nth(0)).toContainText('Variation 1');
  await page.getByRole('button', { name: 'Copy Variation 2' }).click();
  await expect(page.getByText('Copied to clipboard')).toBeVisible();
  const copied = await page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
  expect(copied).toContain('20% off this week');

  // Hacks: limited on the free plan, refetched on a platform change.
  await page.getByRole('tab', { name: 'Algorithm Hacks' }).click();
  await expect(page.getByTestId('hacks-access')).toHaveText('Limited access');
  await expect(page.getByTestId('hack').first()).toBeVisible();
  await expect(page.locator('[data-testid="hack"][data-locked="true"]').first()).toContainText(
    'Upgrade your plan to see how to apply this technique.',
  );
  const hacksAnswer = page.waitForResponse((response) => response.url().endsWith('/api/ai/algorithm-hacks/linkedin'));
  await page.getByLabel('Platform').selectOption('linkedin');
  await hacksAnswer;
  await expect(page.getByTestId('hack').first()).toContainText(/Job function/);

  // Automation: Coming Soon; Join Waitlist records it once, and says so after a reload too.
  await page.getByRole('tab', { name: 'Automation' }).click();
  await expect(page.getByText('Coming Soon')).toBeVisible();
  await page.getByRole('button', { name: 'Join Waitlist' }).click();
  await expect(page.getByText("You're on the waitlist. We'll let you know when it's ready.")).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Automation' }).click();
  await expect(page.getByText("You're on the waitlist. We'll let you know when it's ready.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Join Waitlist' })).toHaveCount(0);
});

test('"Ask AI" in the rule builder drafts a rule that is reviewed, then saved switched off', async ({
  page,
  request,
}) => {
  await signInFreshUser(page, request, 'ask-ai');
  await page.goto('/rules/new');
  await page.getByLabel('อธิบายกฎที่ต้องการ').fill('หยุดโฆษณาที่มี CPA เกิน 500 บาท ใน 7 วันที่ผ่านมา');
  await page.getByRole('button', { name: 'ร่างกฎ' }).click();
  await expect(page.getByTestId('ai-draft-explanation')).toContainText('CPA > 500');
  const name = page.getByLabel('ชื่อกฎ');
  await expect(name).toHaveValue(/CPA > 500/);
  const ruleName = await name.inputValue();
  // Nothing saved yet.
  const token = await page.evaluate(() =>
    (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem('token'),
  );
  const before = await request.get('/api/rules', { headers: { authorization: `Bearer ${token}` } });
  expect((await before.json()).data).toEqual([]);

  await page.getByRole('button', { name: 'สร้างกฎ' }).click();
  await expect(page).toHaveURL(/\/rules\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: ruleName })).toBeVisible();
  await expect(page.getByRole('button', { name: 'เปิดใช้งาน' })).toBeVisible();
});
