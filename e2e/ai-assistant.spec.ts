import { expect, test, type Page } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

const WIDTHS = [
  { name: '1366', viewport: { width: 1366, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;

/** Asks the assistant a question and waits for its answer (the latest one in the thread). */
async function ask(page: Page, question: string, button: string, label: string) {
  await page.getByLabel(label).fill(question);
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByLabel(label)).toHaveValue('');
}

for (const width of WIDTHS) {
  test(`the assistant answers from the account's figures with linked citations, in English and Thai (${width.name} px)`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(width.viewport);
    await signInFreshUser(page, request, `assistant-${width.name}`);
    await connectSandbox(page);
    // The first sync runs in the background: the analyst answers from synced figures only.
    const token = await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem(
        'token',
      ),
    );
    await expect
      .poll(
        async () => {
          const response = await request.get('/api/ad-accounts', { headers: { authorization: `Bearer ${token}` } });
          const accounts = (await response.json()).data as { last_sync: string | null }[];
          return accounts.length > 0 && accounts.every((account) => account.last_sync !== null);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await page.goto('/ai-studio');

    await ask(page, 'Which of my campaigns is wasting the most money?', 'Get AI Advice', 'Your question');
    const answer = page.getByTestId('ai-response');
    // The sandbox's world decides which: spend with no results, or else CPA above twice the account's.
    await expect(answer).toContainText(/Spend with no results|more than twice the account's CPA/);
    const first = answer.getByRole('link').first();
    await expect(first).toHaveAttribute('href', /^\/campaigns\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('ai-citations').getByRole('link').first()).toBeVisible();
    // The conversation is listed, and a follow-up stays in it.
    await expect(page.getByTestId('ai-conversations')).toContainText('Which of my campaigns is wasting');
    await ask(page, 'And over the last 30 days?', 'Get AI Advice', 'Your question');
    await expect(page.getByTestId('ai-response')).toContainText('30 days');
    await expect(page.getByTestId('ai-conversations').getByRole('listitem')).toHaveCount(1);
    await page.screenshot({ path: `test-results/ai-assistant/assistant-en-${width.name}.png`, fullPage: true });

    // Thai: chosen in the shell, asked in Thai, answered in Thai with the same links.
    const picker = page.locator('#app-sidebar').getByRole('combobox', { name: 'Language' });
    if (width.name === '390') await page.getByRole('button', { name: 'Open menu' }).click();
    await picker.selectOption('th');
    if (width.name === '390') await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'ใหม่' }).click();
    await ask(page, 'แคมเปญไหนเสียเงินเปล่ามากที่สุด', 'รับคำแนะนำจาก AI', 'คำถามของคุณ');
    await expect(page.getByTestId('ai-response')).toContainText(/ค่าใช้จ่ายที่ไม่มีผลลัพธ์|สูงกว่าสองเท่าของบัญชี/);
    await expect(page.getByTestId('ai-response').getByRole('link').first()).toHaveAttribute('href', /^\/campaigns\//);
    await expect(page.getByTestId('ai-conversations').getByRole('listitem')).toHaveCount(2);
    await page.screenshot({ path: `test-results/ai-assistant/assistant-th-${width.name}.png`, fullPage: true });
  });
}
