import { ACTIVITY_CODES, type ActivityLog } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import en from '../locales/en/activity.json';
import th from '../locales/th/activity.json';
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
  createdAt: new Date().toISOString(),
});

describe('activityText', () => {
  it('has English and Thai words for every code but the note', () => {
    for (const code of ACTIVITY_CODES.filter((c) => c !== 'note')) {
      expect(en.codes, code).toHaveProperty(code);
      expect(th.codes, code).toHaveProperty(code);
    }
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
      'แผน free เปิดใช้กฎได้ 3 กฎ: ปิดการใช้งาน A, B',
    );
  });
});

describe('a failed payment', () => {
  it('is worded with the plan and the day it stays active to, in Thai and English', () => {
    const params = { plan: 'pro', until: '2026-12-22' };
    expect(activityText(i18n.getFixedT('th'), entry('payment_failed', params))).toBe(
      'ชำระเงินสำหรับแผน pro ไม่สำเร็จ แผนยังใช้งานได้ถึง 2026-12-22 กรุณาอัพเดทวิธีชำระเงินที่หน้าแผนการใช้งาน',
    );
    expect(activityText(i18n.getFixedT('en'), entry('payment_failed', params))).toContain(
      'stays active until 2026-12-22',
    );
  });
});
