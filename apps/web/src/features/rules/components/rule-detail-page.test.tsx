import { ACTIVITY_MESSAGES, PLAN_TABLE, type Plan, type RuleBacktest } from '@adpilot/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fail, fakeApi, ok } from '../test/fake-api.ts';
import { buildAction, buildPreview, buildRun } from '../test/fixtures.ts';
import { renderRulesRoute } from '../test/render-page.tsx';
import { RuleDetailPage } from './rule-detail-page.tsx';

function setup() {
  const rule = buildRule({ name: 'Scale winners', isActive: true });
  const run = buildRun(rule.id, (runId) => [buildAction(rule.id, runId)]);
  const action = run.actions[0]!;
  const fake = fakeApi({
    [`GET /rules/${rule.id}`]: ok(rule),
    [`GET /rules/${rule.id}/runs`]: ok([run]),
  });
  const rendered = renderRulesRoute(`/rules/${rule.id}`, '/rules/:id', <RuleDetailPage />);
  return { ...rendered, fake, rule, run, action };
}

describe('rule detail', () => {
  it('lists the runs with each action’s before → after and its explanation in words', async () => {
    setup();
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    expect(row).toHaveTextContent('งบประมาณรายวัน 1,000 → 1,200');
    expect(row).toHaveTextContent('ดำเนินการแล้ว');
    expect(row).toHaveTextContent('CPA (7 วันล่าสุด รวมวันนี้) เท่ากับ 620.5, มากกว่า 500: เป็นจริง');
    expect(screen.getByText('เรียกใช้เอง')).toBeInTheDocument();
    expect(screen.getByTestId('run-outcome')).toHaveTextContent('ตรวจสอบ 3 ตรงเงื่อนไข 1: ดำเนินการแล้ว 1 รายการ');
  });

  it('says a dayparting schedule by its windows, in Thai and in English', async () => {
    const rule = buildRule({
      name: 'Office hours',
      schedule: { windows: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '20:00' }] },
    });
    fakeApi({ [`GET /rules/${rule.id}`]: ok(rule), [`GET /rules/${rule.id}/runs`]: ok([]) });
    renderRulesRoute(`/rules/${rule.id}`, '/rules/:id', <RuleDetailPage />);
    expect(await screen.findByText('ทำงาน จันทร์–ศุกร์ 08:00–20:00 หยุดชั่วคราวนอกช่วงเวลา')).toBeInTheDocument();
    cleanup();
    setLanguageChoice('en');
    renderRulesRoute(`/rules/${rule.id}`, '/rules/:id', <RuleDetailPage />);
    expect(await screen.findByText('Active Mon–Fri 08:00–20:00, paused outside')).toBeInTheDocument();
  });

  it('writes a run’s budget change in its ad account’s currency, in the history and the revert question', async () => {
    const { user, fake, action } = setup();
    fake.on(
      'GET /ad-accounts',
      ok([
        { id: action.target.adAccountId, facebook_account_name: 'Shop TH', currency: 'THB', timezone: 'Asia/Bangkok' },
      ]),
    );
    const money = (value: number) => formatMoney(value, 'THB', 'th').replace(/\s/g, ' ');
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    await waitFor(() => expect(row).toHaveTextContent(`งบประมาณรายวัน ${money(1000)} → ${money(1200)}`));
    await user.click(within(row).getByRole('button', { name: /ย้อนกลับ/ }));
    const dialog = await screen.findByRole('dialog', { name: 'ย้อนกลับการเปลี่ยนแปลงนี้?' });
    expect(dialog).toHaveTextContent(`งบประมาณรายวัน ${money(1200)} → ${money(1000)}`);
  });

  it('words a failed action and a failed run from the catalogue the server’s e-mails use', async () => {
    const rule = buildRule({ name: 'Scale winners', isActive: true });
    const failedRun = {
      ...buildRun(rule.id, (runId) => [
        buildAction(rule.id, runId, {
          status: 'failed',
          failure: { code: 'entity_missing', params: {} },
          appliedAt: null,
          revertible: false,
        }),
      ]),
      status: 'failed' as const,
      error: { code: 'refresh_failed', params: {} },
    };
    fakeApi({ [`GET /rules/${rule.id}`]: ok(rule), [`GET /rules/${rule.id}/runs`]: ok([failedRun]) });
    renderRulesRoute(`/rules/${rule.id}`, '/rules/:id', <RuleDetailPage />);
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    expect(row).toHaveTextContent(ACTIVITY_MESSAGES.th.actionFailures.entity_missing);
    expect(screen.getByTestId('run-outcome')).toHaveTextContent(ACTIVITY_MESSAGES.th.runErrors.refresh_failed);
  });

  it('shows why a revert is refused (409) next to the action, which stays applied', async () => {
    const { user, fake, action } = setup();
    fake.on(
      `POST /rules/actions/${action.id}/revert`,
      fail(409, 'REVERT_VALUE_CHANGED', 'The budget was changed since the rule set it'),
    );
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    await user.click(within(row).getByRole('button', { name: 'ย้อนกลับ เพิ่มงบประมาณ ของ Bangkok buyers' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'ย้อนกลับ' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent('ย้อนกลับไม่ได้: ค่าถูกเปลี่ยนหลังจากที่กฎตั้งไว้');
    expect(row).toHaveTextContent('ดำเนินการแล้ว');
    expect(within(row).getByRole('button', { name: /ย้อนกลับ/ })).toBeInTheDocument();
  });

  it('reverts: the row takes the server’s answer and loses its Revert button', async () => {
    const { user, fake, action } = setup();
    fake.on(
      `POST /rules/actions/${action.id}/revert`,
      ok({ action: { ...action, status: 'reverted', revertible: false, revertedAt: '2026-11-22T03:00:00.000Z' } }),
    );
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    await user.click(within(row).getByRole('button', { name: /ย้อนกลับ/ }));
    const dialog = await screen.findByRole('dialog', { name: 'ย้อนกลับการเปลี่ยนแปลงนี้?' });
    // From → to on which entity: the budget goes back from the rule's 1,200 to the 1,000 before it.
    expect(dialog).toHaveTextContent('ชุดโฆษณา Bangkok buyers: งบประมาณรายวัน 1,200 → 1,000');
    await user.click(within(dialog).getByRole('button', { name: 'ย้อนกลับ' }));
    await waitFor(() => expect(row).toHaveTextContent('ย้อนกลับแล้ว'));
    expect(within(row).queryByRole('button', { name: /ย้อนกลับ/ })).not.toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/actions/${action.id}/revert`)).toHaveLength(1);
  });

  it('a revert cancelled sends nothing and keeps the action applied', async () => {
    const { user, fake, action } = setup();
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    await user.click(within(row).getByRole('button', { name: /ย้อนกลับ/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'ยกเลิก' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.callsTo('POST', `/rules/actions/${action.id}/revert`)).toHaveLength(0);
    expect(row).toHaveTextContent('ดำเนินการแล้ว');
  });

  it('Run now asks with the preview’s numbers; Cancel sends nothing', async () => {
    setLanguageChoice('en');
    const { user, fake, rule } = setup();
    fake.on(`POST /rules/${rule.id}/preview`, ok(buildPreview()));
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run “Scale winners” now?' });
    await within(dialog).findByText('Run now will pause 1 ad.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.callsTo('POST', `/rules/${rule.id}/run`)).toHaveLength(0);
  });

  it('Run now, confirmed, waits for the run and names why nothing was applied', async () => {
    setLanguageChoice('en');
    const { user, fake, rule, run } = setup();
    const finished = buildRun(rule.id, () => [], {
      matched: 1,
      skipped: [
        {
          entity: { adAccountId: 'a', level: 'ad', externalId: 'ad-1', name: 'Summer' },
          type: 'pause',
          skip: { code: 'cooldown', params: { hours: 24, until: '2026-11-22T07:30:00.000Z' } },
        },
      ],
    });
    const queued = { ...finished, status: 'queued' as const, startedAt: null, matched: 0, skipped: [] };
    fake.on(`POST /rules/${rule.id}/preview`, ok(buildPreview()));
    fake.on(`POST /rules/${rule.id}/run`, ok({ runId: finished.id }, 202));
    // The first read after the start finds it queued; the next one finished.
    let reads = 0;
    fake.on(`GET /rules/${rule.id}/runs`, () => {
      reads += 1;
      return ok(reads === 1 ? [queued, run] : [finished, run]);
    });
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Run now will pause 1 ad.');
    reads = 0;
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    const until = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-11-22T07:30:00.000Z'),
    );
    expect(
      await screen.findByText(
        `“Scale winners”: 3 checked, 1 matched: nothing changed — Skipped: in its 24-hour cooldown until ${until}`,
        {},
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/${rule.id}/run`)).toHaveLength(1);
  });

  it('Run now that made proposals says how many wait for approval, with the way to the Inbox', async () => {
    setLanguageChoice('en');
    const { user, fake, rule, run } = setup();
    const proposals = buildRun(
      rule.id,
      (runId) =>
        Array.from({ length: 4 }, () => ({
          ...buildAction(rule.id, runId),
          status: 'proposed' as const,
          revertible: false,
        })),
      { evaluated: 6, matched: 6 },
    );
    fake.on(`POST /rules/${rule.id}/preview`, ok(buildPreview()));
    fake.on(`POST /rules/${rule.id}/run`, ok({ runId: proposals.id }, 202));
    fake.on(`GET /rules/${rule.id}/runs`, ok([proposals, run]));
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Run now will pause 1 ad.');
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    const toastText = await screen.findByText(
      '“Scale winners”: 6 checked, 6 matched: 4 changes wait for your approval',
      { exact: false },
      { timeout: 5_000 },
    );
    expect(within(toastText.closest('[role="status"]')!).getByRole('link', { name: 'Open the Inbox' })).toHaveAttribute(
      'href',
      '/inbox',
    );
    // The history says it too, with the same way there.
    expect(await screen.findByText('6 checked, 6 matched: 4 changes wait for your approval')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Open the Inbox' })).toHaveLength(2);
  });

  it('backtests 30 days and shows the totals in English when chosen', async () => {
    setLanguageChoice('en');
    const { user, fake, rule } = setup();
    const backtest: RuleBacktest = {
      from: '2026-10-23',
      to: '2026-11-21',
      days: [
        { date: '2026-11-20', evaluated: 3, matched: 1, firings: [], budgets: { THB: 1000 } },
        {
          date: '2026-11-21',
          evaluated: 3,
          matched: 1,
          firings: [
            {
              entity: { adAccountId: 'a', level: 'adset', externalId: 'as-1', name: 'Bangkok buyers' },
              target: { adAccountId: 'a', level: 'adset', externalId: 'as-1', name: 'Bangkok buyers' },
              type: 'increase_budget',
              holderReason: 'self',
              change: { field: 'daily_budget', from: 1000, to: 1200, fromMinor: 100000, toMinor: 120000 },
            },
          ],
          budgets: { THB: 1200 },
        },
      ],
      totals: { firings: 1, byType: { increase_budget: 1 }, entitiesAffected: 1, budgetChange: { THB: 200 } },
    };
    fake.on(`POST /rules/${rule.id}/backtest`, ok(backtest));
    fake.on(
      'GET /ad-accounts',
      ok([{ id: 'a', facebook_account_name: 'Shop TH', currency: 'THB', timezone: 'Asia/Bangkok' }]),
    );
    await user.click(await screen.findByRole('button', { name: 'Run backtest' }));
    expect(await screen.findByText('Changes: 1 · Entities affected: 1')).toBeInTheDocument();
    expect(screen.getByText('Net budget change (THB): +200')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Changes and budgets per day' })).toBeInTheDocument();
    // The line is explained: a total of the budgets it changed, not the change.
    expect(screen.getByText(/Line: the daily budgets of the ad sets and campaigns it changed/)).toBeInTheDocument();
    // And per ad object, what it would have done, in the account's currency.
    const entities = within(screen.getByRole('list', { name: 'What it would have done, per ad object' }));
    const [buyers] = entities.getAllByRole('listitem');
    expect(buyers).toHaveTextContent('Bangkok buyers');
    expect(buyers).toHaveTextContent('Ad set · Nov 21, 2026');
    expect(buyers).toHaveTextContent('Increase budget ×1');
    // The received text has its no-break spaces collapsed; the expected one must too.
    const money = (value: number) => formatMoney(value, 'THB', 'en').replace(/\s/g, ' ');
    await waitFor(() => expect(buyers).toHaveTextContent(`Budget ${money(1000)} → ${money(1200)}`));
    expect(fake.callsTo('POST', `/rules/${rule.id}/backtest`)[0]?.body).toEqual({ days: 30 });
  });

  it('offers the Free plan its 7 days, says why, and never asks for 30', async () => {
    const { user, fake, rule } = setup();
    const plans: Plan[] = PLAN_TABLE.map((entry) => ({
      id: entry.id,
      name: entry.name,
      price: entry.prices.USD,
      prices: [
        { currency: 'USD', amount: entry.prices.USD },
        { currency: 'THB', amount: entry.prices.THB },
      ],
      features: [...entry.features],
      limits: entry.limits,
      badge: entry.badge,
    }));
    const free = plans.find((plan) => plan.id === 'free')!;
    fake.on('GET /subscription/plans', ok(plans));
    fake.on('GET /subscription/current', ok({ plan: 'free', status: 'active' }));
    fake.on(`POST /rules/${rule.id}/backtest`, ok({ from: '2026-11-15', to: '2026-11-21', days: [], totals: {} }));
    expect(await screen.findByTestId('backtest-plan-limit')).toHaveTextContent(
      `แผน Free ของคุณทดสอบย้อนหลังได้สูงสุด ${free.limits.backtestDays} วัน`,
    );
    expect(
      screen.getByText(`จำลองกฎกับข้อมูล ${free.limits.backtestDays} วันที่ผ่านมา`, { exact: false }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'อัปเกรดเพื่อทดสอบย้อนหลังได้นานขึ้น' })).toHaveAttribute('href', '/subscription');
    await user.click(screen.getByRole('button', { name: 'ทดสอบย้อนหลัง' }));
    expect(await screen.findByText('ยังไม่มีข้อมูลให้จำลอง')).toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/${rule.id}/backtest`).map((call) => call.body)).toEqual([
      { days: free.limits.backtestDays },
    ]);
  });

  it('says why the server refused a backtest, with the plan and its days, when the plan could not be read', async () => {
    const { user, fake, rule } = setup();
    fake.on(
      `POST /rules/${rule.id}/backtest`,
      fail(403, 'BACKTEST_RANGE_NOT_IN_PLAN', 'The Free plan backtests rules over at most 7 days.', undefined, {
        plan: 'free',
        limit: 7,
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'ทดสอบย้อนหลัง' }));
    expect(await screen.findByText('แผน Free ของคุณทดสอบย้อนหลังได้สูงสุด 7 วัน')).toBeInTheDocument();
  });

  it('keeps 30 days and says nothing more on a plan that backtests further', async () => {
    const { user, fake, rule } = setup();
    const pro = PLAN_TABLE.find((entry) => entry.id === 'pro')!;
    fake.on(
      'GET /subscription/plans',
      ok([{ id: 'pro', name: 'Pro', price: 0, prices: [], features: [], limits: pro.limits, badge: null }]),
    );
    fake.on('GET /subscription/current', ok({ plan: 'pro', status: 'active' }));
    fake.on(`POST /rules/${rule.id}/backtest`, ok({ from: '2026-10-23', to: '2026-11-21', days: [], totals: {} }));
    await user.click(await screen.findByRole('button', { name: 'ทดสอบย้อนหลัง' }));
    expect(await screen.findByText('ยังไม่มีข้อมูลให้จำลอง')).toBeInTheDocument();
    expect(screen.queryByTestId('backtest-plan-limit')).not.toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/${rule.id}/backtest`)[0]?.body).toEqual({
      days: Math.min(30, pro.limits.backtestDays),
    });
  });
});
