import { expect, test, type Page } from '@playwright/test';
import { connectSandbox, signInFreshUser } from './session.ts';

const SCALE_WINNERS_TH = 'เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี';
/** "งบประมาณรายวัน ฿1,000.00 → ฿1,200.00" in the run history: Thai, in the THB account's currency. */
const BUDGET_CHANGE = /งบประมาณรายวัน ฿([\d,.]+) → ฿([\d,.]+)/;

/** Major units as the sandbox's Ads Manager prints them ("THB 1200.00 / day"). */
function minorText(amount: string): string {
  return Number(amount.replaceAll(',', '')).toFixed(2);
}

test('a rule from the scale-winners template: preview, activate, run now, see and revert the new budget', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(150_000);
  await signInFreshUser(page, request, 'rules');
  await connectSandbox(page);

  await page.goto('/rules');
  await expect(page.getByRole('heading', { level: 1, name: 'กฎอัตโนมัติ' })).toBeVisible();
  await expect(page.getByText('ยังไม่มีกฎอัตโนมัติ')).toBeVisible();
  await page.getByRole('link', { name: 'สร้างกฎใหม่' }).click();
  await page.getByRole('button', { name: new RegExp(SCALE_WINNERS_TH) }).click();
  await expect(page.getByLabel('ชื่อกฎ')).toHaveValue(SCALE_WINNERS_TH);
  // The sandbox's delivery moves with the calendar: on some days no ad set of the first account has a 3-day ROAS
  // over 4. Any ROAS over 0 with the template's minimum spend is a winner every day, so the flow below always has
  // an ad set to scale.
  const roas = page.getByRole('group', { name: 'เงื่อนไขที่ 1' });
  await expect(roas.getByLabel('ตัวชี้วัด', { exact: true })).toHaveValue('roas');
  await roas.getByLabel('ค่า', { exact: true }).fill('0');

  // Preview the unsaved rule: at least one ad set matches and gets a planned budget change.
  await page.getByRole('button', { name: 'ดูตัวอย่าง' }).click();
  const preview = page.getByRole('complementary', { name: 'ตัวอย่าง' });
  await expect(preview.getByText(/^ตรวจสอบ \d+ รายการ/)).toBeVisible({ timeout: 20_000 });
  await expect(preview.getByText('ตรงเงื่อนไข', { exact: true }).first()).toBeVisible();
  await expect(preview.getByText(BUDGET_CHANGE).first()).toBeVisible();

  // A template asks before it changes anything; this flow lets the rule write its change itself.
  await expect(page.getByRole('radio', { name: /ถามฉันก่อน/ })).toBeChecked();
  await page.getByRole('radio', { name: /ดำเนินการอัตโนมัติ/ }).check();
  await page.getByRole('button', { name: 'สร้างกฎ' }).click();
  await expect(page).toHaveURL(/\/rules\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: SCALE_WINNERS_TH })).toBeVisible();

  // Activate, then run now: each asks first (ADR 0058).
  await page.getByRole('button', { name: 'เปิดใช้งาน' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'เปิดใช้งาน' }).click();
  await expect(page.getByRole('button', { name: 'ปิดใช้งาน', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'เรียกใช้ตอนนี้' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'เรียกใช้ตอนนี้' }).click();

  const applied = page.getByRole('group').filter({ hasText: 'ดำเนินการแล้ว' }).filter({ hasText: BUDGET_CHANGE }).first();
  await expect(applied).toBeVisible({ timeout: 60_000 });
  const [, before, after] = BUDGET_CHANGE.exec((await applied.textContent()) ?? '') ?? [];
  expect(before && after).toBeTruthy();
  // The row is named "<action> · <entity>"; it keeps that name once reverted.
  const label = (await applied.getAttribute('aria-label')) ?? '';
  const adSetName = label.split(' · ').slice(1).join(' · ');
  expect(adSetName).not.toBe('');
  // Names repeat across accounts; the Meta id the row shows is what the Ads Manager lists too.
  const metaId = /รหัส Meta (\d+)/.exec((await applied.textContent()) ?? '')?.[1] ?? '';
  expect(metaId).not.toBe('');
  const actionRow = page.getByRole('group', { name: label, exact: true }).filter({ hasText: `รหัส Meta ${metaId}` });

  // The sandbox's Ads Manager, opened from the ad account card, shows the new budget on that ad set.
  await page.goto('/ad-accounts');
  const ads = page.getByRole('article').filter({ hasText: 'Sandbox' });
  await expect(ads.first()).toBeVisible();
  let manager: Page | undefined;
  for (const card of await ads.all()) {
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      card.getByRole('link', { name: 'View in Facebook' }).click(),
    ]);
    // A noopener tab starts blank, then navigates to the sandbox's Ads Manager.
    await expect(opened).toHaveURL(/\/adsmanager\?act=/);
    await expect(opened.getByRole('table')).toBeVisible();
    if ((await opened.getByRole('cell', { name: metaId, exact: true }).count()) > 0) {
      manager = opened;
      break;
    }
    await opened.close();
  }
  expect(manager, `an Ads Manager page lists ${adSetName} (${metaId})`).toBeDefined();
  const row = manager!.getByRole('row').filter({ has: manager!.getByRole('cell', { name: metaId, exact: true }) });
  await expect(row).toContainText(adSetName);
  await expect(row).toContainText(`${minorText(after!)} / day`);

  // Revert it from the rule's history; the Ads Manager shows the old budget again.
  await page.goBack();
  await expect(actionRow).toBeVisible({ timeout: 20_000 });
  await actionRow.getByRole('button', { name: /ย้อนกลับ/ }).click();
  const answered = page.waitForResponse((response) => /\/rules\/actions\/[^/]+\/revert$/.test(response.url()));
  await page.getByRole('dialog').getByRole('button', { name: 'ย้อนกลับ' }).click();
  const revertedByMeta = (await answered).ok();
  // A revert of a raise is a cut, and Meta refuses a cut under 110 % of the day's spend so far: in the account's
  // morning (Bangkok) it is always taken; later in its day either outcome is right, and Meta must agree with it.
  const bangkokHour = Number(
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Bangkok' }).format(
      new Date(),
    ),
  );
  if (bangkokHour < 12) expect(revertedByMeta, "a revert in the account's morning is taken").toBe(true);
  if (revertedByMeta) await expect(actionRow).toContainText('ย้อนกลับแล้ว');
  await manager!.reload();
  await expect(row).toContainText(`${minorText(revertedByMeta ? before! : after!)} / day`);
});
