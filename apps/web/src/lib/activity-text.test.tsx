import { ACTIVITY_CODES, ACTIVITY_MESSAGES, renderActivity, type ActivityLog } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { activityText } from './activity-text.ts';
import { i18n } from './i18n.ts';

const entry = (code: string | null, params: ActivityLog['params'], description = 'stored'): ActivityLog => ({
  _id: '00000000-0000-4000-8000-000000000000',
  seq: 1,
  level: 'info',
  type: 'sync',
  code,
  params,
  description,
  adAccountId: null,
  ruleId: null,
  metadata: {},
  actor: null,
  createdAt: new Date().toISOString(),
});

describe('activityText', () => {
  it('has English and Thai words for every code but the note, from the catalogue shared with the server', () => {
    for (const code of ACTIVITY_CODES.filter((c) => c !== 'note')) {
      for (const language of ['en', 'th'] as const)
        expect(i18n.getFixedT(language)(`activity:codes.${code}`), code).toBe(ACTIVITY_MESSAGES[language].codes[code]);
    }
  });

  it('reads the same as the server’s renderer, nested codes included', () => {
    const entries = [
      entry('rule_action_failed', { ruleName: 'R', action: 'decrease_budget', target: 'T', error: 'reauth_required' }),
      entry('rule_run_failed', { ruleName: 'R', reason: 'refresh_failed' }),
      entry('notification_webhook_failed', { host: 'hooks.example', attempts: 6, reason: 'http_status', status: 503 }),
      entry('plan_rules_deactivated', { plan: 'free', limit: 3, count: 2, rules: 'A, B' }),
      entry('account_disconnected', { accountName: 'Shop', accountId: 'act_1', rules: 'Stop loss' }),
      entry('plan_changed', { from: 'free', to: 'business' }),
    ];
    for (const language of ['en', 'th'] as const) {
      for (const log of entries)
        expect(activityText(i18n.getFixedT(language), log)).toBe(renderActivity(log, language));
    }
    expect(activityText(i18n.getFixedT('en'), entries[0]!)).toBe(
      'Rule “R” could not lower the budget on “T” (Facebook access has expired: reconnect the account)',
    );
    expect(activityText(i18n.getFixedT('th'), entries[4]!)).toBe(
      'ยกเลิกการเชื่อมต่อบัญชีโฆษณา Shop (act_1) แล้ว และปิดการใช้งานกฎที่ใช้เฉพาะบัญชีนี้: Stop loss',
    );
    expect(activityText(i18n.getFixedT('th'), entries[5]!)).toBe('เปลี่ยนแผนจาก Free เป็น Business');
    expect(activityText(i18n.getFixedT('th'), entries[2]!)).toBe(
      'ส่งเว็บฮุกไปยัง hooks.example ไม่สำเร็จหลังจากพยายาม 6 ครั้ง: ผู้รับตอบกลับ 503',
    );
  });

  it('renders a stored code in the reader’s language, with its parameters and nested codes', () => {
    const failed = entry('sync_failed', { accountName: 'Shop', reason: 'meta_unavailable', detail: 'x' });
    expect(activityText(i18n.getFixedT('en'), failed)).toBe('Sync of Shop failed: Facebook is temporarily unavailable');
    expect(activityText(i18n.getFixedT('th'), failed)).toBe('ซิงค์ Shop ไม่สำเร็จ: Facebook ไม่พร้อมให้บริการชั่วคราว');
    const applied = entry('rule_action_applied', { ruleName: 'Stop loss', action: 'pause', target: 'Ad <b>1</b>' });
    expect(activityText(i18n.getFixedT('en'), applied)).toBe('Rule “Stop loss”: pause on “Ad <b>1</b>”');
    expect(activityText(i18n.getFixedT('th'), applied)).toBe('กฎ “Stop loss”: หยุดชั่วคราว “Ad <b>1</b>”');
  });

  it('reads a note, an unknown code and an uncoded entry as their stored description', () => {
    const t = i18n.getFixedT('th');
    expect(activityText(t, entry('note', {}, '<script>x</script>'))).toBe('<script>x</script>');
    expect(activityText(t, entry('from_the_future', {}, 'later'))).toBe('later');
    expect(activityText(t, entry(null, {}, 'old sentence'))).toBe('old sentence');
  });
});

describe('activity codes of billing', () => {
  it('words a plan change and the rules it switched off, the names listed', async () => {
    const { activityCodeOf } = await import('@adpilot/contracts');
    const { params } = activityCodeOf({
      code: 'plan_rules_deactivated',
      params: { plan: 'free', limit: 3, count: 2, rules: ['A', 'B'], nested: { x: 1 } },
    });
    expect(params).toEqual({ plan: 'free', limit: 3, count: 2, rules: 'A, B' });
    expect(activityText(i18n.getFixedT('th'), entry('plan_rules_deactivated', params))).toBe(
      'แผน Free เปิดใช้กฎได้ 3 กฎ: ปิดการใช้งาน A, B',
    );
  });
});

describe('rules slowed by a plan change', () => {
  it('names the plan, the interval and the rules, in Thai and English', async () => {
    const { activityCodeOf, describeActivity } = await import('@adpilot/contracts');
    const { params } = activityCodeOf({
      code: 'plan_rules_slowed',
      params: { plan: 'free', minutes: 60, count: 2, rules: ['A', 'B'] },
    });
    expect(activityText(i18n.getFixedT('th'), entry('plan_rules_slowed', params))).toBe(
      'แผน Free ตรวจสอบกฎได้ถี่สุดทุก 60 นาที: A, B จะตรวจสอบทุก 60 นาที',
    );
    const english = 'The Free plan checks rules at most every 60 minutes: A, B now run every 60 minutes';
    expect(activityText(i18n.getFixedT('en'), entry('plan_rules_slowed', params))).toBe(english);
    expect(describeActivity('plan_rules_slowed', params)).toBe(english);
  });
});

describe('a failed payment', () => {
  it('is worded with the plan and the day it stays active to, in Thai and English', () => {
    const params = { plan: 'pro', until: '2026-12-22' };
    expect(activityText(i18n.getFixedT('th'), entry('payment_failed', params))).toBe(
      'ชำระเงินสำหรับแผน Pro ไม่สำเร็จ แผนยังใช้งานได้ถึง 2026-12-22 กรุณาอัพเดทวิธีชำระเงินที่หน้าแผนการใช้งาน',
    );
    expect(activityText(i18n.getFixedT('en'), entry('payment_failed', params))).toContain(
      'Payment for the Pro plan failed; it stays active until 2026-12-22',
    );
  });
});
