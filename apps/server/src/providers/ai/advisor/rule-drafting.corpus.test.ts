import type { RuleAction } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { draftRule } from './rule-drafting.ts';

const plan = { fastestCheckMinutes: 15 };

interface Expected {
  level: 'campaign' | 'adset' | 'ad';
  conditions: { metric: string; operator: string; value: number | [number, number]; window: string }[];
  actions: RuleAction[];
  minSpend?: number;
  /** Words the read-back must carry (the limits said, in the prompt's language). */
  says?: RegExp[];
}

/**
 * The built-in drafter's corpus (issue 29): sentences in English and Thai and the rule bodies they must give, every
 * limit that was said kept — ceilings and floors, notify, windows, minimum spend — and read back in plain words.
 */
const CORPUS: [string, Expected][] = [
  [
    'raise the budget 20 % when ROAS is above 3, up to 3,000 baht, and tell me',
    {
      level: 'adset',
      conditions: [{ metric: 'roas', operator: 'gt', value: 3, window: 'last_7d' }],
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 3000 }, { type: 'notify' }],
      says: [/never goes above 3000/, /notified/],
    },
  ],
  [
    'pause ads with CPA over 500 baht in the last 7 days',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'pause ads with CPA over 500 in the last 3 days and let me know',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_3d' }],
      actions: [{ type: 'pause' }, { type: 'notify' }],
    },
  ],
  [
    'increase campaign budget by 500 when ROAS above 4 in the last 14 days, max 10,000',
    {
      level: 'campaign',
      conditions: [{ metric: 'roas', operator: 'gt', value: 4, window: 'last_14d' }],
      actions: [{ type: 'increase_budget', by: 500, unit: 'amount', ceiling: 10000 }],
    },
  ],
  [
    'cut the ad set budget by 15% when CPA is above 800 yesterday, not below 300',
    {
      level: 'adset',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 800, window: 'yesterday' }],
      actions: [{ type: 'decrease_budget', by: 15, unit: 'percent', floor: 300 }],
      says: [/never goes below 300/],
    },
  ],
  [
    'lower budget 10% if CTR below 0.5 in the last 7 days, minimum 200 baht',
    {
      level: 'adset',
      conditions: [{ metric: 'ctr', operator: 'lt', value: 0.5, window: 'last_7d' }],
      actions: [{ type: 'decrease_budget', by: 10, unit: 'percent', floor: 200 }],
    },
  ],
  [
    'notify me when frequency is above 3 in the last 7 days',
    {
      level: 'ad',
      conditions: [{ metric: 'frequency', operator: 'gt', value: 3, window: 'last_7d' }],
      actions: [{ type: 'notify' }],
    },
  ],
  [
    'pause ads with no conversions in the last 3 days, minimum spend 300',
    {
      level: 'ad',
      conditions: [{ metric: 'conversions', operator: 'eq', value: 0, window: 'last_3d' }],
      actions: [{ type: 'pause' }],
      minSpend: 300,
      says: [/spent at least 300/],
    },
  ],
  [
    'pause campaigns with CPC over 20 today',
    {
      level: 'campaign',
      conditions: [{ metric: 'cpc', operator: 'gt', value: 20, window: 'today' }],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'scale ad sets 30% when ROAS is at least 5 in the last 30 days, capped at 5000 and email me',
    {
      level: 'adset',
      conditions: [{ metric: 'roas', operator: 'gte', value: 5, window: 'last_30d' }],
      actions: [{ type: 'increase_budget', by: 30, unit: 'percent', ceiling: 5000 }, { type: 'notify' }],
    },
  ],
  [
    'resume ads with CPA under 200 yesterday',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'lt', value: 200, window: 'yesterday' }],
      actions: [{ type: 'resume' }],
    },
  ],
  [
    'pause ads when CPM is above 150 and CTR below 1 in the last 7 days',
    {
      level: 'ad',
      conditions: [
        { metric: 'cpm', operator: 'gt', value: 150, window: 'last_7d' },
        { metric: 'ctr', operator: 'lt', value: 1, window: 'last_7d' },
      ],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'increase budget by 25% when ROAS is above 3.5, no more than 8000',
    {
      level: 'adset',
      conditions: [{ metric: 'roas', operator: 'gt', value: 3.5, window: 'last_7d' }],
      actions: [{ type: 'increase_budget', by: 25, unit: 'percent', ceiling: 8000 }],
    },
  ],
  [
    'decrease campaign budget by 1000 when spend is over 5000 and conversions below 5 in the last 7 days, never below 2000',
    {
      level: 'campaign',
      conditions: [
        { metric: 'spend', operator: 'gt', value: 5000, window: 'last_7d' },
        { metric: 'conversions', operator: 'lt', value: 5, window: 'last_7d' },
      ],
      actions: [{ type: 'decrease_budget', by: 1000, unit: 'amount', floor: 2000 }],
    },
  ],
  [
    'alert me when CPA is over 1000 in the last 14 days',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 1000, window: 'last_14d' }],
      actions: [{ type: 'notify' }],
    },
  ],
  [
    'pause ad sets with CPA over 600 in the last 7 days, after spending 500',
    {
      level: 'adset',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 600, window: 'last_7d' }],
      actions: [{ type: 'pause' }],
      minSpend: 500,
    },
  ],
  // Thai
  [
    'เพิ่มงบ 20% เมื่อ ROAS มากกว่า 3 ไม่เกิน 3,000 บาท และแจ้งเตือนฉัน',
    {
      level: 'adset',
      conditions: [{ metric: 'roas', operator: 'gt', value: 3, window: 'last_7d' }],
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 3000 }, { type: 'notify' }],
      says: [/ไม่เกิน 3000/, /แจ้งเตือนคุณ/],
    },
  ],
  [
    'หยุดโฆษณาที่ CPA มากกว่า 500 บาท ใน 7 วันที่ผ่านมา',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_7d' }],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'หยุดโฆษณาที่ CPA มากกว่า 500 บาท ใน 3 วัน แล้วแจ้งเตือน',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 500, window: 'last_3d' }],
      actions: [{ type: 'pause' }, { type: 'notify' }],
    },
  ],
  [
    'ลดงบ 10% เมื่อ CPA มากกว่า 800 เมื่อวาน ไม่ต่ำกว่า 300 บาท',
    {
      level: 'adset',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 800, window: 'yesterday' }],
      actions: [{ type: 'decrease_budget', by: 10, unit: 'percent', floor: 300 }],
      says: [/ไม่ต่ำกว่า 300/],
    },
  ],
  [
    'แจ้งเตือนเมื่อความถี่มากกว่า 3 ใน 7 วันที่ผ่านมา',
    {
      level: 'ad',
      conditions: [{ metric: 'frequency', operator: 'gt', value: 3, window: 'last_7d' }],
      actions: [{ type: 'notify' }],
    },
  ],
  [
    'เพิ่มงบแคมเปญ 500 บาท เมื่อ ROAS มากกว่า 4 ใน 14 วัน สูงสุด 10,000 บาท',
    {
      level: 'campaign',
      conditions: [{ metric: 'roas', operator: 'gt', value: 4, window: 'last_14d' }],
      actions: [{ type: 'increase_budget', by: 500, unit: 'amount', ceiling: 10000 }],
    },
  ],
  [
    'หยุดแคมเปญที่ CPC มากกว่า 20 วันนี้',
    {
      level: 'campaign',
      conditions: [{ metric: 'cpc', operator: 'gt', value: 20, window: 'today' }],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'หยุดโฆษณาที่ไม่มีผลลัพธ์ใน 3 วัน ใช้จ่ายขั้นต่ำ 300 บาท',
    {
      level: 'ad',
      conditions: [{ metric: 'conversions', operator: 'eq', value: 0, window: 'last_3d' }],
      actions: [{ type: 'pause' }],
      minSpend: 300,
      says: [/ใช้จ่ายอย่างน้อย 300/],
    },
  ],
  [
    'ลดงบชุดโฆษณา 15% เมื่อ CTR น้อยกว่า 0.5 ใน 7 วันที่ผ่านมา ต่ำสุด 200',
    {
      level: 'adset',
      conditions: [{ metric: 'ctr', operator: 'lt', value: 0.5, window: 'last_7d' }],
      actions: [{ type: 'decrease_budget', by: 15, unit: 'percent', floor: 200 }],
    },
  ],
  [
    'เปิดโฆษณาอีกครั้งเมื่อ CPA น้อยกว่า 200 เมื่อวาน',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'lt', value: 200, window: 'yesterday' }],
      actions: [{ type: 'resume' }],
    },
  ],
  [
    'เพิ่มงบชุดโฆษณา 30% เมื่อ ROAS อย่างน้อย 5 ใน 30 วัน เพดาน 5,000 บาท',
    {
      level: 'adset',
      conditions: [{ metric: 'roas', operator: 'gte', value: 5, window: 'last_30d' }],
      actions: [{ type: 'increase_budget', by: 30, unit: 'percent', ceiling: 5000 }],
    },
  ],
  [
    'แจ้งเตือนเมื่อ CPA มากกว่า 1000 ใน 14 วัน',
    {
      level: 'ad',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 1000, window: 'last_14d' }],
      actions: [{ type: 'notify' }],
    },
  ],
  [
    'หยุดโฆษณาที่ CPM มากกว่า 150 และ CTR น้อยกว่า 1 ใน 7 วันที่ผ่านมา',
    {
      level: 'ad',
      conditions: [
        { metric: 'cpm', operator: 'gt', value: 150, window: 'last_7d' },
        { metric: 'ctr', operator: 'lt', value: 1, window: 'last_7d' },
      ],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'เพิ่มงบ 25% เมื่อ ROAS มากกว่า 3.5 ได้ถึง 8,000 บาท แล้วแจ้งให้ทราบ',
    {
      level: 'adset',
      conditions: [{ metric: 'roas', operator: 'gt', value: 3.5, window: 'last_7d' }],
      actions: [{ type: 'increase_budget', by: 25, unit: 'percent', ceiling: 8000 }, { type: 'notify' }],
    },
  ],
  [
    'ลดงบแคมเปญ 1000 บาท เมื่อใช้จ่ายมากกว่า 5000 ใน 7 วัน ไม่ต่ำกว่า 2000',
    {
      level: 'campaign',
      conditions: [{ metric: 'spend', operator: 'gt', value: 5000, window: 'last_7d' }],
      actions: [{ type: 'decrease_budget', by: 1000, unit: 'amount', floor: 2000 }],
    },
  ],
  [
    'หยุดชุดโฆษณาที่ CPA มากกว่า 600 ใน 7 วัน เมื่อใช้จ่ายครบ 500 บาท',
    {
      level: 'adset',
      conditions: [{ metric: 'cpa', operator: 'gt', value: 600, window: 'last_7d' }],
      actions: [{ type: 'pause' }],
      minSpend: 500,
    },
  ],
];

describe('the built-in drafter keeps every limit that was said', () => {
  it('holds at least 30 prompts in English and Thai', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(CORPUS.filter(([prompt]) => /[\u0E00-\u0E7F]/.test(prompt)).length).toBeGreaterThanOrEqual(12);
  });

  it.each(CORPUS)('%s', (prompt, expected) => {
    const draft = draftRule(prompt, plan);
    expect(draft.rule.scope.level).toBe(expected.level);
    const items = draft.rule.conditions.items as { metric: string; operator: string; value: unknown; window: string }[];
    expect(items.map(({ metric, operator, value, window }) => ({ metric, operator, value, window }))).toEqual(
      expected.conditions,
    );
    expect(draft.rule.actions).toEqual(expected.actions);
    expect(draft.rule.safeguards?.minSpend ?? 0).toBe(expected.minSpend ?? 0);
    expect(draft.language).toBe(/[\u0E00-\u0E7F]/.test(prompt) ? 'th' : 'en');
    for (const words of expected.says ?? []) expect(draft.explanation).toMatch(words);
    if (draft.language === 'th') expect(draft.explanation).not.toMatch(/\b(never|budget|notified|judged)\b/);
  });
});
