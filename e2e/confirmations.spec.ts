import type { AdAccount, RulePreview, RuleRun } from '@adpilot/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { connectSandbox, openSandboxConsent, signInFreshUser } from './session.ts';

/**
 * Money moves only after a question that says what will happen (ADR 0058): Run now, a plan change; the consent
 * screen's Cancel is a neutral notice; toasts never cover the page's primary action.
 */

type Bearer = { authorization: string };

async function api<T>(request: APIRequestContext, auth: Bearer, method: 'GET' | 'POST', path: string, data?: object) {
  const response = await request.fetch(`/api${path}`, { method, headers: auth, ...(data ? { data } : {}) });
  expect(response.ok(), `${method} ${path}: ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

function bearerOf(session: { token: string }): Bearer {
  return { authorization: `Bearer ${session.token}` };
}

const planned = (preview: RulePreview) =>
  preview.entities.flatMap((entity) => entity.actions).filter((action) => action.outcome === 'planned');

/** Every request the page sends that changes something (not a read, not a preview). */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() !== 'GET' && url.pathname.startsWith('/api/') && !url.pathname.endsWith('/preview'))
      writes.push(`${request.method()} ${url.pathname}`);
  });
  return writes;
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('Run now asks with the preview’s numbers; Cancel changes nothing on the sandbox; Confirm runs and says how it ended', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const session = await signInFreshUser(page, request, 'confirm-run');
  const auth = bearerOf(session);
  // On Pro the sandbox's USD account connects too: this test pauses its ads, which no other suite touches.
  await api(request, auth, 'POST', '/subscription/upgrade', { planId: 'pro' });
  await connectSandbox(page);
  const accounts = await api<AdAccount[]>(request, auth, 'GET', '/ad-accounts');
  const brooklyn = accounts.find((account) => account.currency === 'USD');
  expect(brooklyn, 'the sandbox’s USD account').toBeDefined();

  const rule = await api<{ id: string }>(request, auth, 'POST', '/rules', {
    name: 'Pause every delivering ad',
    description: '',
    isActive: false,
    scope: { adAccountIds: [brooklyn!.id], level: 'ad', statuses: ['ACTIVE'] },
    conditions: { match: 'all', items: [{ metric: 'spend', operator: 'gte', value: 0, window: 'last_7d' }] },
    actions: [{ type: 'pause' }],
    schedule: { everyMinutes: 60 },
    safeguards: { cooldownHours: 0, maxActionsPerDay: 1000, minSpend: 0, minImpressions: 0, settleHours: 0 },
  });
  const before = planned(await api<RulePreview>(request, auth, 'POST', `/rules/${rule.id}/preview`));
  expect(before.length).toBeGreaterThan(0);

  await page.goto(`/rules/${rule.id}`);
  const writes = recordWrites(page);
  const runNow = page.getByRole('button', { name: 'เรียกใช้ตอนนี้' });
  await runNow.click();
  const dialog = page.getByRole('dialog', { name: 'เรียกใช้ “Pause every delivering ad” ตอนนี้?' });
  await expect(dialog.getByText(`การเรียกใช้ตอนนี้จะหยุดโฆษณา ${before.length} รายการชั่วคราว`)).toBeVisible();
  await dialog.getByText(/^ดูตัวอย่าง/).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(before.length);

  // Cancel: nothing is sent, nothing runs, every ad is as it was.
  await dialog.getByRole('button', { name: 'ยกเลิก' }).click();
  await expect(dialog).toBeHidden();
  expect(writes).toEqual([]);
  expect(await api<RuleRun[]>(request, auth, 'GET', `/rules/${rule.id}/runs`)).toEqual([]);
  expect(planned(await api<RulePreview>(request, auth, 'POST', `/rules/${rule.id}/preview`))).toHaveLength(
    before.length,
  );

  // Confirm: the run goes, and the toast says how it ended, not just "queued".
  await runNow.click();
  await dialog.getByRole('button', { name: 'เรียกใช้ตอนนี้' }).click();
  const outcome = page.getByText(`ดำเนินการแล้ว ${before.length}`, { exact: false }).first();
  await expect(outcome).toBeVisible({ timeout: 60_000 });
  // The toast sits below the page's header: the primary action stays clickable.
  const toastBox = await page
    .getByRole('status')
    .filter({ hasText: 'Pause every delivering ad' })
    .locator('xpath=..')
    .boundingBox();
  const buttonBox = await runNow.boundingBox();
  expect(toastBox && buttonBox && !overlaps(toastBox, buttonBox)).toBe(true);
  expect(writes).toEqual([`POST /api/rules/${rule.id}/run`]);
});

test('a plan change asks with the price and limits; keeping the plan sends nothing', async ({ page, request }) => {
  await signInFreshUser(page, request, 'confirm-plan');
  await page.goto('/subscription');
  const writes = recordWrites(page);
  await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'เลือกแผน Pro' }).click();
  const dialog = page.getByRole('dialog', { name: 'เปลี่ยนเป็นแผน Pro?' });
  await expect(dialog).toContainText('แผน Pro:');
  await expect(dialog).toContainText('กฎที่เปิดใช้งาน 25 กฎ');
  await dialog.getByRole('button', { name: 'ใช้แผนเดิมต่อ' }).click();
  await expect(dialog).toBeHidden();
  expect(writes).toEqual([]);
  await expect(page.getByText('FREE', { exact: true })).toBeVisible();

  await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'เลือกแผน Pro' }).click();
  await dialog.getByRole('button', { name: 'เปลี่ยนเป็นแผน Pro' }).click();
  await expect(page.getByText('PRO', { exact: true })).toBeVisible();
  expect(writes).toEqual(['POST /api/subscription/upgrade']);
});

test('Cancel on the consent screen is a neutral “Connection cancelled”, not a failure', async ({ page, request }) => {
  await signInFreshUser(page, request, 'confirm-consent');
  await openSandboxConsent(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/ad-accounts$/);
  await expect(page.getByText(/^Connection cancelled\./)).toBeVisible();
  await expect(page.getByText('Failed to connect Facebook ad accounts. Please try again.')).toHaveCount(0);
});

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`the toast after toggling a rule does not cover Create (${viewport.width} px)`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const session = await signInFreshUser(page, request, 'confirm-toast');
    await api(request, bearerOf(session), 'POST', '/rules', {
      name: 'Quiet rule',
      description: '',
      isActive: true,
      scope: { adAccountIds: [], level: 'ad' },
      conditions: { match: 'all', items: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }] },
      actions: [{ type: 'notify' }],
      schedule: { everyMinutes: 60 },
      safeguards: {},
    });
    await page.goto('/rules');
    await page.getByRole('button', { name: 'ปิดใช้งานกฎ Quiet rule' }).click();
    const message = page.getByRole('status').filter({ hasText: 'Quiet rule' });
    await expect(message).toBeVisible();
    // The toast's bar: the message's box with its icon and padding.
    const toast = message.locator('xpath=..');
    const create = page.getByRole('link', { name: 'สร้างกฎใหม่' });
    // Measured once the toast has slid in: still top-right (its right edge at the toaster's inset, its top above the
    // middle), and clear of the page's primary action.
    await expect
      .poll(async () => {
        const box = await toast.boundingBox();
        return box ? Math.round(viewport.width - (box.x + box.width)) : -1;
      })
      .toBeLessThanOrEqual(24);
    // The toast slides down into place: once it has settled (two equal measures while it still shows), it sits clear
    // of Create. A toast over Create settles there too, and fails.
    let previous = '';
    await expect
      .poll(async () => {
        await expect(message).toBeVisible();
        const box = await toast.boundingBox();
        const now = JSON.stringify(box);
        const settled = now === previous;
        previous = now;
        return settled;
      })
      .toBe(true);
    const [toastBox, createBox] = [await toast.boundingBox(), await create.boundingBox()];
    expect(toastBox && createBox).toBeTruthy();
    expect(overlaps(toastBox!, createBox!)).toBe(false);
    expect(toastBox!.y).toBeLessThan(viewport.height / 2);
  });
}
