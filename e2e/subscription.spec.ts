import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInFreshUser } from './session.ts';

/** The access token the page stored, to set up data through the API as the same user. */
async function token(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage.getItem(
        'token',
      ) ?? '',
  );
}

async function createRule(request: APIRequestContext, bearer: string, name: string, isActive: boolean) {
  const response = await request.post('/api/rules', {
    headers: { authorization: `Bearer ${bearer}` },
    data: {
      name,
      description: '',
      isActive,
      scope: { adAccountIds: [], level: 'ad' },
      conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }] },
      actions: [{ type: 'pause' }],
      schedule: { everyMinutes: 60 },
      safeguards: {},
    },
  });
  expect(response.status()).toBe(201);
}

const meter = (page: Page, name: string) => page.getByRole('meter', { name });

test('upgrade free → pro changes the plan, the meters and the limits; cancel asks first and returns to free', async ({
  page,
  request,
}) => {
  await signInFreshUser(page, request, 'billing');
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { level: 1, name: 'แผนการใช้งาน' })).toBeVisible();
  await expect(page.getByText('FREE', { exact: true })).toBeVisible();
  await expect(meter(page, 'คำขอ AI')).toHaveAttribute('aria-valuetext', '0 / 30');
  await expect(meter(page, 'กฎอัตโนมัติ')).toHaveAttribute('aria-valuetext', '0 / 3');
  await expect(meter(page, 'บัญชีโฆษณา')).toHaveAttribute('aria-valuetext', '0 / 1');
  // The plan grid: a Thai page in the plan table's baht (ADR 0114), badges; the free plan has nothing to cancel.
  const pro = page.getByRole('article', { name: 'Pro' });
  await expect(pro.getByText('฿990.00')).toBeVisible();
  await expect(pro.getByText(/≈/)).toHaveCount(0);
  await expect(pro.getByText('ยอดนิยม')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Enterprise' }).getByText('แนะนำ')).toBeVisible();
  await expect(page.getByRole('button', { name: 'ยกเลิกแผน' })).toHaveCount(0);

  // Choosing the current plan is blocked with the spec's notice.
  await page.getByRole('article', { name: 'Free' }).getByRole('button').click();
  await expect(page.getByText('คุณใช้แผนนี้อยู่แล้ว')).toBeVisible();

  await pro.getByRole('button', { name: 'เลือกแผน Pro' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'เปลี่ยนเป็นแผน Pro' }).click();
  const upgraded = page.getByText('แผนการใช้งานได้รับการอัพเดทแล้ว!');
  await expect(upgraded).toBeVisible();
  // A toast's words never take a click, neither the toast nor the window-wide row it sits in: the cancel button
  // may lie under it. (A toast's link does: the plan-limit test below follows one.)
  const pointerEvents = await upgraded.evaluate((element) => {
    // Runs in the browser; the e2e tsconfig has no DOM types, hence the narrow views.
    interface Node {
      parentElement: Node | null;
      closest(selector: string): Node | null;
    }
    const view = globalThis as unknown as { getComputedStyle(node: Node): { pointerEvents: string } };
    const start = element as unknown as Node;
    const toaster = start.closest('.app-toaster');
    const chain: string[] = [];
    for (let node: Node | null = start; node; node = node === toaster ? null : node.parentElement) {
      chain.push(view.getComputedStyle(node).pointerEvents);
    }
    return [...new Set(chain)];
  });
  expect(pointerEvents).toEqual(['none']);
  await expect(page.getByText('PRO', { exact: true })).toBeVisible();
  await expect(meter(page, 'คำขอ AI')).toHaveAttribute('aria-valuetext', '0 / 500');
  await expect(meter(page, 'กฎอัตโนมัติ')).toHaveAttribute('aria-valuetext', '0 / 25');
  await expect(meter(page, 'บัญชีโฆษณา')).toHaveAttribute('aria-valuetext', '0 / 5');
  // Local billing: no payment provider account, so no billing portal to open.
  await expect(page.getByRole('button', { name: 'จัดการการชำระเงินและวิธีชำระเงิน' })).toHaveCount(0);

  // Cancel: the confirmation first; keeping the plan changes nothing.
  await page.getByRole('button', { name: 'ยกเลิกแผน' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('คุณแน่ใจหรือไม่ว่าต้องการยกเลิกแผน?')).toBeVisible();
  await dialog.getByRole('button', { name: 'ใช้แผนต่อ' }).click();
  await expect(page.getByText('PRO', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'ยกเลิกแผน' }).click();
  await dialog.getByRole('button', { name: 'ยกเลิกแผน' }).click();
  await expect(page.getByText('แผนการใช้งานถูกยกเลิกแล้ว')).toBeVisible();
  await expect(page.getByText('FREE', { exact: true })).toBeVisible();
  await expect(meter(page, 'กฎอัตโนมัติ')).toHaveAttribute('aria-valuetext', '0 / 3');
});

test('the 4th active rule on the free plan is refused with the way to upgrade', async ({ page, request }) => {
  await signInFreshUser(page, request, 'billing-limit');
  const bearer = await token(page);
  for (const name of ['Rule one', 'Rule two', 'Rule three']) await createRule(request, bearer, name, true);
  await createRule(request, bearer, 'Rule four', false);

  await page.goto('/rules');
  await page.getByRole('button', { name: 'เปิดใช้งานกฎ Rule four' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'เปิดใช้งาน' }).click();
  // The refusal names the limit and the plan (ADR 0058).
  await expect(page.getByText('แผน Free เปิดใช้กฎได้พร้อมกัน 3 กฎ ปิดกฎหนึ่งกฎ หรืออัพเกรดแผน')).toBeVisible();
  const upgrade = page.getByRole('link', { name: 'ดูแผนและอัพเกรด' });
  await expect(upgrade).toBeVisible();
  await expect(page.getByRole('article', { name: 'Rule four' }).getByText('ปิดใช้งาน', { exact: true })).toBeVisible();
  await upgrade.click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByRole('meter', { name: 'กฎอัตโนมัติ' })).toHaveAttribute('aria-valuetext', '3 / 3');
});
