import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import type { Words } from './explain.ts';
import { blankRule, type RuleFormValues } from './rule-form-values.ts';
import { actionSummary, summarizeRule } from './summary.ts';

const words = (language: 'en' | 'th'): Words => ({ t: i18n.getFixedT(language, 'rules'), language });
const NAMES = new Map([['00000000-0000-4000-8000-0000000000aa', 'Sandbox Shop']]);

/** A rule with one of everything the summary words: a range, a metric against another, a nested any-group. */
function fullRule(): RuleFormValues {
  return {
    ...blankRule(),
    isActive: true,
    scope: {
      adAccountIds: ['00000000-0000-4000-8000-0000000000aa'],
      level: 'adset',
      nameContains: ' summer ',
      statuses: ['ACTIVE'],
    },
    conditions: {
      match: 'all',
      items: [
        { metric: 'roas', operator: 'between', value: [1.5, 2500], window: 'last_3d', includeToday: true },
        {
          match: 'any',
          items: [
            {
              metric: 'cpc',
              operator: 'gt',
              value: { metric: 'cpm', factor: 0.25 },
              window: 'today',
              includeToday: false,
            },
            { metric: 'daily_budget', operator: 'lt', value: Number.NaN, window: 'last_7d', includeToday: false },
          ],
        },
      ],
    },
    actions: [
      { type: 'increase_budget', by: 20, unit: 'percent', ceiling: 5000 },
      { type: 'notify', message: 'Look at it' },
    ],
    schedule: { dailyAt: '09:00' },
    safeguards: {
      cooldownHours: 1,
      maxActionsPerDay: 1000,
      minSpend: 0,
      minImpressions: 0,
      settleHours: 3,
      respectManualChangesHours: 0,
    },
  };
}

describe('summarizeRule', () => {
  it('says a blank rule in English: every entity of every account, one condition, one action, hourly', () => {
    expect(summarizeRule(blankRule(), NAMES, words('en'))).toEqual({
      status: 'Switched off: saving it does not start it.',
      scope: 'Looks at active ads in every connected ad account.',
      conditions: { heading: 'When all of these hold:', items: ['CPA (the last 7 days) is greater than 500'] },
      actions: ['Pause it'],
      schedule: "Checks every 60 minutes, in each ad account's time zone.",
      safeguards: [
        'acts on the same item at most once every 24 hours',
        'at most 20 actions a day',
        'leaves an item alone for 24 hours after someone changes it outside AdPilot',
      ],
    });
  });

  it('words ranges, a metric against another, nested groups, blanks, limits and numbers in English', () => {
    expect(summarizeRule(fullRule(), NAMES, words('en'))).toEqual({
      status: 'Switched on: it runs on its schedule once saved.',
      scope: 'Looks at active ad sets in Sandbox Shop whose name contains “summer”.',
      conditions: {
        heading: 'When all of these hold:',
        items: [
          'ROAS (the last 3 days, including today) is between 1.5 and 2,500',
          {
            heading: 'Any of these:',
            // A budget is a state: no window. A value being typed shows as a blank, not NaN.
            items: ['CPC (today) is greater than 0.25 × CPM', 'Daily budget is less than …'],
          },
        ],
      },
      actions: ['Raise its budget by 20% (up to 5,000)', 'Send a notification: “Look at it”'],
      schedule: "Checks once a day at 09:00, in each ad account's time zone.",
      safeguards: [
        'acts on the same item at most once an hour',
        'at most 1,000 actions a day',
        "leaves today's figures out for the first 3 hours of the day",
      ],
    });
  });

  it('says the same rule in Thai', () => {
    const summary = summarizeRule(fullRule(), NAMES, words('th'));
    expect(summary.scope).toBe('ตรวจสอบชุดโฆษณาที่ใช้งานอยู่ ในบัญชี Sandbox Shop ที่ชื่อมีคำว่า “summer”');
    expect(summary.conditions.items[0]).toBe('ROAS (3 วันล่าสุด รวมวันนี้) ระหว่าง 1.5 ถึง 2,500');
    expect(summary.conditions.items[1]).toEqual({
      heading: 'ข้อใดข้อหนึ่งต่อไปนี้:',
      items: ['CPC (วันนี้) มากกว่า 0.25 × CPM', 'งบประมาณรายวัน น้อยกว่า …'],
    });
    expect(summary.actions).toEqual(['เพิ่มงบประมาณ 20% (สูงสุด 5,000)', 'ส่งการแจ้งเตือน: “Look at it”']);
    expect(summary.schedule).toBe('ตรวจวันละครั้งเวลา 09:00 น. ตามเขตเวลาของแต่ละบัญชีโฆษณา');
    expect(summary.status).toBe('เปิดใช้งาน: เมื่อบันทึกแล้วกฎจะทำงานตามกำหนดเวลา');
  });

  it('counts accounts whose names are not loaded, and says every status when none or both are ticked', () => {
    const rule = blankRule();
    rule.scope = { adAccountIds: ['a', 'b'], level: 'campaign', statuses: ['ACTIVE', 'PAUSED'] };
    expect(summarizeRule(rule, new Map(), words('en')).scope).toBe('Looks at all campaigns in 2 ad accounts.');
    rule.scope = { adAccountIds: [], level: 'campaign', statuses: ['PAUSED'] };
    expect(summarizeRule(rule, new Map(), words('th')).scope).toBe('ตรวจสอบแคมเปญที่หยุดชั่วคราว ในทุกบัญชีโฆษณาที่เชื่อมต่อ');
  });
});

describe('a pause with a timed hold', () => {
  it('words when it resumes, in English and Thai', () => {
    expect(actionSummary({ type: 'pause', resumeAfter: { hours: 6 } }, words('en'))).toBe(
      'Pause it, then resume it after 6 hours',
    );
    expect(actionSummary({ type: 'pause', resumeAfter: { hours: 1 } }, words('en'))).toBe(
      'Pause it, then resume it after 1 hour',
    );
    expect(actionSummary({ type: 'pause', resumeAfter: { atLocalTime: '00:00' } }, words('th'))).toBe(
      'หยุดชั่วคราว แล้วเปิดใช้งานต่อเวลา 00:00 ตามเขตเวลาของบัญชี',
    );
    expect(actionSummary({ type: 'pause' }, words('en'))).toBe('Pause it');
  });
});

describe('relative conditions in the summary', () => {
  it('says the previous period in %, and the account or the campaign with its factor, in English and Thai', async () => {
    const { conditionSummary } = await import('./summary.ts');
    const previous = {
      metric: 'cpa',
      operator: 'gt',
      value: 50,
      window: 'last_7d',
      includeToday: false,
      compare: 'previous_period',
    } as const;
    expect(conditionSummary(previous, words('en'))).toContain('greater than 50% against the previous period');
    expect(conditionSummary(previous, words('th'))).toContain('มากกว่า 50% เมื่อเทียบกับช่วงก่อนหน้า');
    const account = {
      metric: 'cpa',
      operator: 'gt',
      factor: 1.5,
      window: 'last_7d',
      includeToday: false,
      compare: 'account',
    } as const;
    expect(conditionSummary(account, words('en'))).toContain("greater than 1.5 × the account's value");
    expect(conditionSummary({ ...account, compare: 'campaign' }, words('th'))).toContain('มากกว่า 1.5 × ค่าของแคมเปญ');
  });
});
