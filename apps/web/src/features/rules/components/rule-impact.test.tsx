import type { RuleImpact } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fakeApi, ok } from '../test/fake-api.ts';
import { renderRulesRoute } from '../test/render-page.tsx';
import { RuleDetailPage } from './rule-detail-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000c';
const ACCOUNT = '00000000-0000-4000-8000-0000000000b1';
const figures = (spend: number, results: number, cpa: number | null, roas: number | null) => ({
  spend,
  results,
  cpa,
  roas,
});

const impact: RuleImpact = {
  from: '2026-10-28',
  to: '2026-11-26',
  actions: [
    {
      actionId: 'a1',
      type: 'pause',
      entity: { adAccountId: ACCOUNT, level: 'ad', externalId: '1', name: 'Summer sale' },
      currency: 'THB',
      appliedAt: '2026-11-01T03:00:00.000Z',
      localDate: '2026-11-01',
      revertedAt: null,
      budget: null,
      windows: [
        { days: 3, afterDays: 3, before: figures(300, 1, 300, 0), after: figures(0, 0, null, null) },
        { days: 7, afterDays: 7, before: figures(700, 2, 350, 0), after: figures(0, 0, null, null) },
        { days: 14, afterDays: 14, before: figures(1400, 3, 466.67, 0), after: null },
      ],
      spendAvoided: { estimate: true, amount: 2500, dailySpend: 100, days: 25, ongoing: true },
    },
    {
      actionId: 'a2',
      type: 'increase_budget',
      entity: { adAccountId: ACCOUNT, level: 'adset', externalId: '2', name: 'Night owls' },
      currency: 'THB',
      appliedAt: '2026-11-02T03:00:00.000Z',
      localDate: '2026-11-02',
      revertedAt: '2026-11-05T03:00:00.000Z',
      budget: { from: 500, to: 600 },
      windows: [
        { days: 3, afterDays: 2, before: figures(900, 9, 100, 3), after: figures(700, 5, 140, 2.5) },
        { days: 7, afterDays: 2, before: figures(2100, 20, 105, 3), after: figures(700, 5, 140, 2.5) },
        { days: 14, afterDays: 2, before: figures(4200, 40, 105, 3), after: figures(700, 5, 140, 2.5) },
      ],
      spendAvoided: null,
    },
  ],
  totals: {
    actionsApplied: 2,
    byType: { pause: 1, increase_budget: 1 },
    currency: 'THB',
    budgetRaised: 100,
    budgetLowered: 0,
    spendAvoided: 2500,
    compared: 1,
    before: { cpa: 105, roas: 3 },
    after: { cpa: 140, roas: 2.5 },
  },
  daily: [
    { date: '2026-11-01', spend: 400, cpa: 100, roas: 3 },
    { date: '2026-11-02', spend: 350, cpa: 120, roas: 2.8 },
  ],
};

function open(language: 'en' | 'th' = 'en') {
  chooseWorkspace(TEAM);
  setLanguageChoice(language);
  const rule = buildRule({ name: 'Stop loss' });
  const fake = fakeApi({
    [`GET /rules/${rule.id}`]: ok(rule),
    [`GET /rules/${rule.id}/runs`]: ok([]),
    [`GET /rules/${rule.id}/holds`]: ok([]),
    [`GET /rules/${rule.id}/impact`]: ok(impact),
    // Fourteen hours ahead of UTC: its today is the browser's tomorrow for most of the day.
    'GET /ad-accounts': ok([{ id: ACCOUNT, timezone: 'Pacific/Kiritimati' }]),
    'GET /workspaces': ok([{ id: TEAM, name: 'Acme Agency', role: 'viewer', personal: false }]),
  });
  renderRulesRoute(`/rules/${rule.id}`, '/rules/:id', <RuleDetailPage />);
  return { fake, rule };
}

describe('the impact section on the rule page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks for the days as the ad account counts them, not the browser's", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 12:00 UTC on 30 November is already 02:00 on 1 December in Kiritimati.
    vi.setSystemTime(new Date('2026-11-30T12:00:00.000Z'));
    const { fake, rule } = open();
    await screen.findByRole('heading', { name: 'Impact' });
    await vi.waitFor(() => expect(fake.callsTo('GET', `/rules/${rule.id}/impact`)).toHaveLength(1));
    const [call] = fake.callsTo('GET', `/rules/${rule.id}/impact`);
    expect(Object.fromEntries(call!.query)).toEqual({ from: '2026-11-02', to: '2026-12-01' });
  });

  it('shows the totals (spend avoided as an estimate), the chart and each change before → after', async () => {
    const { fake, rule } = open();
    const section = (await screen.findByRole('heading', { name: 'Impact' })).closest('section') as HTMLElement;
    expect(await within(section).findAllByText('Summer sale')).toHaveLength(2); // the list (narrow) and the table (wide)
    expect(section).toHaveTextContent('Spend avoided Estimate');
    expect(section).toHaveTextContent('THB 2,500.00');
    expect(section).toHaveTextContent('+THB 100.00');
    expect(section).toHaveTextContent('CPA: THB 105.00 → THB 140.00');
    expect(section).toHaveTextContent('ROAS: 3 → 2.5');
    expect(section).toHaveTextContent('After: waiting for these days to settle');
    expect(section).toHaveTextContent('After: 2 days, until the revert');
    expect(section).toHaveTextContent('Spend avoided (estimate): THB 2,500.00 = THB 100.00 a day × 25 days');
    expect(await within(section).findByRole('img', { name: /CPA per day/ })).toBeInTheDocument();
    const [call] = fake.callsTo('GET', `/rules/${rule.id}/impact`);
    expect(call).toBeDefined();
  });

  it('speaks Thai', async () => {
    open('th');
    const section = (await screen.findByRole('heading', { name: 'ผลลัพธ์' })).closest('section') as HTMLElement;
    expect(await within(section).findAllByText('Night owls')).toHaveLength(2);
    expect(section).toHaveTextContent('ค่าประมาณ');
    expect(section).toHaveTextContent('หลัง: 2 วัน จนถึงการย้อนกลับ');
  });
});
