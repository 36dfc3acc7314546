import { ACTIVITY_MESSAGES, type RuleBacktest } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fail, fakeApi, ok } from '../test/fake-api.ts';
import { buildAction, buildRun } from '../test/fixtures.ts';
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
    expect(screen.getByText('ตรวจสอบ 3 ตรงเงื่อนไข 1')).toBeInTheDocument();
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
    expect(screen.getByText(ACTIVITY_MESSAGES.th.runErrors.refresh_failed)).toBeInTheDocument();
  });

  it('shows why a revert is refused (409) next to the action, which stays applied', async () => {
    const { user, fake, action } = setup();
    fake.on(
      `POST /rules/actions/${action.id}/revert`,
      fail(409, 'REVERT_VALUE_CHANGED', 'The budget was changed since the rule set it'),
    );
    const row = await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    await user.click(within(row).getByRole('button', { name: 'ย้อนกลับ เพิ่มงบประมาณ ของ Bangkok buyers' }));
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
    await waitFor(() => expect(row).toHaveTextContent('ย้อนกลับแล้ว'));
    expect(within(row).queryByRole('button', { name: /ย้อนกลับ/ })).not.toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/actions/${action.id}/revert`)).toHaveLength(1);
  });

  it('runs now and shows the queued run from the refreshed history', async () => {
    const { user, fake, rule, run } = setup();
    const queued = {
      ...buildRun(rule.id, () => []),
      // As the server answers a queued manual run: its slot is an id, not a time.
      slot: 'manual:5f0c8a4e-0000-4000-8000-000000000001',
      status: 'queued' as const,
      startedAt: null,
      evaluated: 0,
      matched: 0,
    };
    fake.on(`POST /rules/${rule.id}/run`, ok({ runId: queued.id }, 202));
    fake.on(`GET /rules/${rule.id}/runs`, ok([queued, run]));
    await screen.findByRole('group', { name: 'เพิ่มงบประมาณ · Bangkok buyers' });
    await user.click(screen.getByRole('button', { name: 'เรียกใช้ตอนนี้' }));
    expect(await screen.findByText('อยู่ในคิว')).toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/${rule.id}/run`)).toHaveLength(1);
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
    await user.click(await screen.findByRole('button', { name: 'Run backtest' }));
    expect(await screen.findByText('Changes: 1 · Entities affected: 1')).toBeInTheDocument();
    expect(screen.getByText('Net budget change (THB): +200')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Changes and budgets per day' })).toBeInTheDocument();
    expect(fake.callsTo('POST', `/rules/${rule.id}/backtest`)[0]?.body).toEqual({ days: 30 });
  });
});
