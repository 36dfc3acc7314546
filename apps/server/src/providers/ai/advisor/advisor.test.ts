import {
  adCopySchema,
  analysisSchema,
  createRuleRequestSchema,
  PLATFORM_COPY_LIMITS,
  PLATFORMS,
  strategySchema,
  type CreateRuleRequest,
} from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/app-error.ts';
import { formatVariation } from '../../../modules/ai/ai.service.ts';
import { AdvisorProvider } from './advisor-provider.ts';

const advisor = new AdvisorProvider();
/** A plan that allows every schedule (enterprise's 5 minutes). */
const ANY_PLAN = { fastestCheckMinutes: 5 };

describe('performance analysis', () => {
  it('finds a weak CTR and a strong ROAS, with the numbers and the benchmarks', async () => {
    const items = await advisor.analyzePerformance({
      name: 'Summer sale',
      currency: 'THB',
      spend: 10000,
      impressions: 200000,
      reach: 80000,
      clicks: 1000,
      conversions: 50,
      conversion_value: 50000,
    });
    expect(analysisSchema.parse(items)).toEqual(items);
    const ctr = items.find((item) => item.title.startsWith('Low click-through rate'));
    expect(ctr).toMatchObject({ type: 'optimization' });
    expect(ctr?.description).toContain('CTR is 0.50%');
    expect(ctr?.description).toContain('0.90%');
    const roas = items.find((item) => item.title.startsWith('Strong return on ad spend'));
    expect(roas).toMatchObject({ type: 'success' });
    expect(roas?.description).toContain('ROAS is 5');
    expect(roas?.description).toContain('50000 THB');
    // CPA 200 THB is 20% of the 1000 THB average order: efficient.
    expect(items.find((item) => item.title.startsWith('Efficient conversions'))?.description).toContain(
      'CPA is 200 THB',
    );
    // Warnings first, then optimizations, then successes.
    const order = items.map((item) => ['warning', 'optimization', 'success'].indexOf(item.type));
    expect(order).toEqual([...order].sort());
  });

  it('warns on a losing ROAS, a target CPA missed and ad fatigue', async () => {
    const items = await advisor.analyzePerformance({
      spend: 1000,
      impressions: 50000,
      reach: 10000,
      clicks: 900,
      conversions: 10,
      revenue: 800,
      targetCpa: 50,
    });
    const warnings = items.filter((item) => item.type === 'warning').map((item) => item.title);
    expect(warnings).toEqual(['Spending more than it earns', 'Above the target CPA', 'Ad fatigue risk']);
    expect(items.find((item) => item.title === 'Ad fatigue risk')?.description).toContain('Frequency is 5');
  });

  it('reads a list of campaigns and says which one is strong', async () => {
    const items = await advisor.analyzePerformance({
      campaigns: [
        { name: 'A', spend: '1,000', impressions: 100000, clicks: 2000, conversions: 40, revenue: 6000 },
        { name: 'B', spend: 1000, impressions: 100000, clicks: 300, conversions: 2, revenue: 400 },
      ],
    });
    expect(items.some((item) => item.title === 'Strong return on ad spend (A)')).toBe(true);
    expect(items.some((item) => item.title === 'Spending more than it earns (B)')).toBe(true);
  });

  it('says so when the data has no figure it can read', async () => {
    const items = await advisor.analyzePerformance({ hello: 'world' });
    expect(items).toEqual([expect.objectContaining({ type: 'warning', title: 'No figures found' })]);
  });
});

describe('ad copy', () => {
  const product = {
    name: 'AdPilot Coffee Subscription Premium Edition',
    description: 'Freshly roasted single-origin beans delivered to your door every two weeks without fail',
    audience: 'Busy professionals who love great coffee',
    offer: '30% off your first three boxes',
    price: 590,
    currency: 'THB',
  };

  it.each(PLATFORMS)('writes three variations within the %s limits', async (platform) => {
    const variations = await advisor.generateAdCopy(product, platform);
    expect(variations).toHaveLength(3);
    const limits = PLATFORM_COPY_LIMITS[platform];
    for (const variation of variations) {
      expect([...variation.primaryText].length).toBeLessThanOrEqual(limits.primaryText);
      if (platform === 'tiktok') expect(variation.headline).toBeNull();
      else expect([...(variation.headline ?? '')].length).toBeLessThanOrEqual(limits.headline);
    }
    expect(new Set(variations.map((variation) => variation.primaryText)).size).toBe(3);
    expect(adCopySchema.parse(variations.map(formatVariation))).toHaveLength(3);
  });

  it('uses the product facts it was given', async () => {
    const [first, second] = await advisor.generateAdCopy({ name: 'Glow Serum', offer: 'Buy 1 get 1' }, 'facebook');
    expect(first?.headline).toContain('Glow Serum');
    expect(second?.primaryText).toContain('Buy 1 get 1');
  });

  it('keeps Thai copy within the limits too', async () => {
    const variations = await advisor.generateAdCopy(
      {
        name: 'เซรั่มบำรุงผิวหน้าสูตรเข้มข้นพิเศษสำหรับผิวแพ้ง่าย',
        benefit: 'ผิวชุ่มชื่นยาวนานตลอดวันโดยไม่เหนียวเหนอะหนะแม้อากาศร้อนชื้นของเมืองไทย',
      },
      'google',
    );
    for (const variation of variations) {
      expect([...(variation.headline ?? '')].length).toBeLessThanOrEqual(30);
      expect([...variation.primaryText].length).toBeLessThanOrEqual(90);
    }
  });
});

describe('assistant', () => {
  it('answers a common question from the knowledge base, in English and in Thai', async () => {
    expect(await advisor.chat('How can I improve my CTR?', null)).toContain('clicks ÷ impressions');
    const thai = await advisor.chat('จะลด CPA ได้อย่างไร', null);
    expect(thai).toContain('ต้นทุนต่อผลลัพธ์');
  });

  it('says plainly when it does not know', async () => {
    expect(await advisor.chat('What is the capital of Mongolia?', null)).toMatch(/^Sorry, I don't know/);
    expect(await advisor.chat('ราคาทองวันนี้เท่าไหร่', null)).toMatch(/^ขออภัย ฉันไม่ทราบ/);
  });

  it("uses the caller's account summary when asked about their accounts", async () => {
    const context = {
      accounts: [
        {
          name: 'Bangkok Shop',
          currency: 'THB',
          status: 'active',
          spend: 7000,
          impressions: 100000,
          clicks: 1500,
          conversions: 35,
          conversionValue: 21000,
          ctr: 1.5,
          cpc: 4.67,
          cpa: 200,
          roas: 3,
        },
      ],
    };
    const answer = await advisor.chat('How are my accounts doing?', context);
    expect(answer).toContain('Bangkok Shop: 7000 THB, CTR 1.50%, CPA 200, ROAS 3');
  });
});

describe('strategy', () => {
  it('plans a business product on LinkedIn and search, within the schema', async () => {
    const strategy = await advisor.generateStrategy({ name: 'Ledgerly', audience: 'finance teams at SaaS companies' });
    expect(strategySchema.parse(strategy)).toEqual(strategy);
    expect(strategy.channels[0]?.platform).toBe('linkedin');
    expect(strategy.budgetSplit.reduce((sum, part) => sum + part.percent, 0)).toBe(100);
  });
});

type Expected = Pick<CreateRuleRequest, 'actions'> & {
  level: 'campaign' | 'adset' | 'ad';
  match?: 'all' | 'any';
  conditions: [string, string, number, string][];
};

const c = (metric: string, operator: string, value: number, window: string): [string, string, number, string] => [
  metric,
  operator,
  value,
  window,
];

const PHRASINGS: [string, Expected][] = [
  // English
  [
    'pause ads with CPA over 500 baht in the last 7 days',
    { level: 'ad', conditions: [c('cpa', 'gt', 500, 'last_7d')], actions: [{ type: 'pause' }] },
  ],
  [
    'increase budget by 20% when ROAS is above 4',
    {
      level: 'adset',
      conditions: [c('roas', 'gt', 4, 'last_7d')],
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent' }],
    },
  ],
  [
    'Pause campaigns where CTR is below 1% over the last 3 days',
    { level: 'campaign', conditions: [c('ctr', 'lt', 1, 'last_3d')], actions: [{ type: 'pause' }] },
  ],
  [
    'decrease the budget by 15% for ad sets with CPC above 20 yesterday',
    {
      level: 'adset',
      conditions: [c('cpc', 'gt', 20, 'yesterday')],
      actions: [{ type: 'decrease_budget', by: 15, unit: 'percent' }],
    },
  ],
  [
    'notify me when spend exceeds 1,000 today',
    { level: 'ad', conditions: [c('spend', 'gt', 1000, 'today')], actions: [{ type: 'notify' }] },
  ],
  [
    'resume ad sets with ROAS at least 3 in the last 14 days',
    { level: 'adset', conditions: [c('roas', 'gte', 3, 'last_14d')], actions: [{ type: 'resume' }] },
  ],
  [
    'pause ads when frequency is greater than 3 in the last 7 days',
    { level: 'ad', conditions: [c('frequency', 'gt', 3, 'last_7d')], actions: [{ type: 'pause' }] },
  ],
  [
    'set budget to 500 when CPA under 100 in the last 30 days',
    { level: 'adset', conditions: [c('cpa', 'lt', 100, 'last_30d')], actions: [{ type: 'set_budget', amount: 500 }] },
  ],
  [
    'pause ad sets that spent more than 1000 baht with no conversions',
    {
      level: 'adset',
      conditions: [c('spend', 'gt', 1000, 'last_7d'), c('conversions', 'eq', 0, 'last_7d')],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'scale winners: raise budget 30% if roas > 3.5 last 7 days',
    {
      level: 'adset',
      conditions: [c('roas', 'gt', 3.5, 'last_7d')],
      actions: [{ type: 'increase_budget', by: 30, unit: 'percent' }],
    },
  ],
  [
    'alert me if CPA goes over 300 lifetime',
    { level: 'ad', conditions: [c('cpa', 'gt', 300, 'lifetime')], actions: [{ type: 'notify' }] },
  ],
  [
    'pause campaigns if CTR is under 0.8 or CPC is over 15 in the last 3 days',
    {
      level: 'campaign',
      match: 'any',
      conditions: [c('ctr', 'lt', 0.8, 'last_3d'), c('cpc', 'gt', 15, 'last_3d')],
      actions: [{ type: 'pause' }],
    },
  ],
  // Thai
  [
    'หยุดโฆษณาที่มี CPA เกิน 500 บาท ใน 7 วันที่ผ่านมา',
    { level: 'ad', conditions: [c('cpa', 'gt', 500, 'last_7d')], actions: [{ type: 'pause' }] },
  ],
  [
    'เพิ่มงบ 20% เมื่อ ROAS มากกว่า 4',
    {
      level: 'adset',
      conditions: [c('roas', 'gt', 4, 'last_7d')],
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent' }],
    },
  ],
  [
    'หยุดแคมเปญที่ CTR ต่ำกว่า 1% ใน 3 วันที่ผ่านมา',
    { level: 'campaign', conditions: [c('ctr', 'lt', 1, 'last_3d')], actions: [{ type: 'pause' }] },
  ],
  [
    'ลดงบประมาณ 15% ของชุดโฆษณาที่ CPC สูงกว่า 20 บาท เมื่อวาน',
    {
      level: 'adset',
      conditions: [c('cpc', 'gt', 20, 'yesterday')],
      actions: [{ type: 'decrease_budget', by: 15, unit: 'percent' }],
    },
  ],
  [
    'แจ้งเตือนเมื่อค่าใช้จ่ายเกิน 1000 บาท วันนี้',
    { level: 'ad', conditions: [c('spend', 'gt', 1000, 'today')], actions: [{ type: 'notify' }] },
  ],
  [
    'เปิดชุดโฆษณาอีกครั้งเมื่อ ROAS อย่างน้อย 3 ใน 14 วันที่ผ่านมา',
    { level: 'adset', conditions: [c('roas', 'gte', 3, 'last_14d')], actions: [{ type: 'resume' }] },
  ],
  [
    'ปิดโฆษณาที่ความถี่มากกว่า 3 ใน 7 วันล่าสุด',
    { level: 'ad', conditions: [c('frequency', 'gt', 3, 'last_7d')], actions: [{ type: 'pause' }] },
  ],
  [
    'ตั้งงบเป็น 500 บาท เมื่อ CPA น้อยกว่า 100 ใน 30 วัน',
    { level: 'adset', conditions: [c('cpa', 'lt', 100, 'last_30d')], actions: [{ type: 'set_budget', amount: 500 }] },
  ],
  [
    'หยุดชุดโฆษณาที่ใช้จ่ายเกิน 1000 บาทและไม่มีคอนเวอร์ชัน',
    {
      level: 'adset',
      conditions: [c('spend', 'gt', 1000, 'last_7d'), c('conversions', 'eq', 0, 'last_7d')],
      actions: [{ type: 'pause' }],
    },
  ],
  [
    'หยุดโฆษณาที่ CPM สูงกว่า 200 ใน 14 วันที่ผ่านมา',
    { level: 'ad', conditions: [c('cpm', 'gt', 200, 'last_14d')], actions: [{ type: 'pause' }] },
  ],
];

describe('rule drafting', () => {
  it('covers at least ten phrasings in each language', () => {
    const thai = PHRASINGS.filter(([prompt]) => /[\u0E00-\u0E7F]/.test(prompt)).length;
    expect(thai).toBeGreaterThanOrEqual(10);
    expect(PHRASINGS.length - thai).toBeGreaterThanOrEqual(10);
  });

  it.each(PHRASINGS)('drafts "%s"', async (prompt, expected) => {
    const draft = await advisor.draftRule(prompt, ANY_PLAN);
    // The draft is a rule the rules contract accepts as it is, and it is switched off.
    expect(createRuleRequestSchema.parse(draft.rule)).toEqual(draft.rule);
    expect(draft.rule.isActive).toBe(false);
    expect(draft.rule.scope.level).toBe(expected.level);
    expect(draft.rule.conditions.match).toBe(expected.match ?? 'all');
    expect(
      draft.rule.conditions.items.map((item) =>
        'metric' in item ? [item.metric, item.operator, item.value, item.window] : null,
      ),
    ).toEqual(expected.conditions);
    expect(draft.rule.actions).toEqual(expected.actions);
    expect(draft.language).toBe(/[\u0E00-\u0E7F]/.test(prompt) ? 'th' : 'en');
    expect(draft.explanation.length).toBeGreaterThan(20);
  });

  it.each(['hello how are you', 'make me a sandwich', 'pause everything', 'ROAS banana', 'สวัสดีครับ', 'CPA 500'])(
    'refuses "%s" with a message',
    async (prompt) => {
      const refusal = await advisor.draftRule(prompt, ANY_PLAN).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({ statusCode: 422, code: 'AI_DRAFT_NOT_UNDERSTOOD' });
      expect((refusal as AppError).message).toContain('pause ads with CPA over 500 baht');
    },
  );

  it('moves a budget action on ads up to ad sets and says so', async () => {
    const draft = await advisor.draftRule('raise the budget of ads by 10% when ROAS is over 5', ANY_PLAN);
    expect(draft.rule.scope.level).toBe('adset');
    expect(draft.explanation).toContain('Ads have no budget');
  });

  it('reads a schedule when one is given', async () => {
    const daily = await advisor.draftRule('pause ads with CPA over 300 yesterday, daily at 9am', ANY_PLAN);
    expect(daily.rule.schedule).toEqual({ dailyAt: '09:00' });
    const often = await advisor.draftRule('pause ads with CPA over 300 today every 5 minutes', ANY_PLAN);
    expect(often.rule.schedule).toEqual({ everyMinutes: 5 });
  });

  it("defaults to the plan's fastest check and fits a faster request to it, saying so", async () => {
    const prompt = 'pause ads with CPA over 300 today';
    expect((await advisor.draftRule(prompt, { fastestCheckMinutes: 60 })).rule.schedule).toEqual({ everyMinutes: 60 });
    expect((await advisor.draftRule(prompt, { fastestCheckMinutes: 15 })).rule.schedule).toEqual({ everyMinutes: 15 });
    expect((await advisor.draftRule(prompt, ANY_PLAN)).rule.schedule).toEqual({ everyMinutes: 5 });
    const fast = await advisor.draftRule(`${prompt} every 5 minutes`, { fastestCheckMinutes: 15 });
    expect(fast.rule.schedule).toEqual({ everyMinutes: 15 });
    expect(fast.explanation.split('\n')).toContain(
      'Your plan checks rules at most every 15 minutes, so the rule is checked every 15 minutes instead of every 5 minutes. Upgrade your plan on the Subscription page to check more often.',
    );
    const thai = await advisor.draftRule('หยุดโฆษณาที่ CPA มากกว่า 300 วันนี้ ทุก 5 นาที', { fastestCheckMinutes: 60 });
    expect(thai.rule.schedule).toEqual({ everyMinutes: 60 });
    expect(thai.explanation).toContain('ตรวจทุก 60 นาที');
    expect(thai.explanation).toContain('แผนของคุณตรวจกฎได้ถี่สุดทุก 60 นาที จึงตั้งให้ตรวจทุก 60 นาทีแทนทุก 5 นาที');
    // A daily check fits every plan; a slower interval is kept without a note.
    const daily = await advisor.draftRule(`${prompt}, daily at 9am`, { fastestCheckMinutes: 60 });
    expect(daily.rule.schedule).toEqual({ dailyAt: '09:00' });
    const slow = await advisor.draftRule(`${prompt} every 30 minutes`, { fastestCheckMinutes: 15 });
    expect(slow.rule.schedule).toEqual({ everyMinutes: 30 });
    expect(slow.explanation).not.toContain('Your plan');
  });
});
