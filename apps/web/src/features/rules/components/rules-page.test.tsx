import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fail, fakeApi, ok } from '../test/fake-api.ts';
import { buildPreview } from '../test/fixtures.ts';
import { renderRulesRoute } from '../test/render-page.tsx';
import { RulesPage } from './rules-page.tsx';

const renderPage = () => renderRulesRoute('/rules', '/rules', <RulesPage />);

function counter(name: string) {
  return screen.getByRole('group', { name });
}

describe('RulesPage', () => {
  it('is Thai by default: heading, create button, counters counted through nested groups, cards', async () => {
    const nested = buildRule({ name: 'กฎหยุดขาดทุน', isActive: true, lastTriggered: '2026-11-20T03:04:00.000Z' });
    const flat = buildRule({
      name: 'Scale',
      description: '',
      conditions: {
        match: 'all',
        items: [{ metric: 'roas', operator: 'gt', value: 4, window: 'last_3d', includeToday: false }],
      },
      actions: [{ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 5000 }, { type: 'notify' }],
    });
    fakeApi({ 'GET /rules': ok([nested, flat]) });
    renderPage();

    expect(screen.getByRole('heading', { level: 1, name: 'กฎอัตโนมัติ' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'สร้างกฎใหม่' })).toHaveAttribute('href', '/rules/new');
    await screen.findByRole('article', { name: 'กฎหยุดขาดทุน' });
    expect(counter('กฎทั้งหมด')).toHaveTextContent('2');
    expect(counter('กฎที่เปิดใช้งาน')).toHaveTextContent('1');
    expect(counter('กฎที่ทำงานแล้ว')).toHaveTextContent('1');
    // The stop-loss tree holds one condition and a group of two: three, plus the other rule's one.
    expect(counter('เงื่อนไขทั้งหมด')).toHaveTextContent('4');

    const first = screen.getByRole('article', { name: 'กฎหยุดขาดทุน' });
    expect(first).toHaveTextContent('เปิดใช้งาน');
    expect(first).toHaveTextContent('Pause ads whose CPA is above 500');
    expect(first).toHaveTextContent('3 เงื่อนไข');
    expect(first).toHaveTextContent('1 การดำเนินการ');
    const thaiDate = new Intl.DateTimeFormat('th', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-11-20T03:04:00.000Z'),
    );
    expect(thaiDate).toMatch(/2569/); // the Buddhist year: the date really is in the Thai calendar
    expect(first).toHaveTextContent(`ทำงานล่าสุด: ${thaiDate}`);

    const second = screen.getByRole('article', { name: 'Scale' });
    expect(second).toHaveTextContent('ปิดใช้งาน');
    expect(second).toHaveTextContent('1 เงื่อนไข');
    expect(second).toHaveTextContent('2 การดำเนินการ');
    expect(second).not.toHaveTextContent('ทำงานล่าสุด');
    expect(within(second).getByRole('link', { name: 'แก้ไข กฎ Scale' })).toHaveAttribute(
      'href',
      `/rules/${flat.id}/edit`,
    );
  });

  it('is English when the user chose English, with English plurals and dates', async () => {
    setLanguageChoice('en');
    const rule = buildRule({ name: 'Stop loss', lastTriggered: '2026-11-20T03:04:00.000Z' });
    fakeApi({ 'GET /rules': ok([rule]) });
    renderPage();
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    expect(screen.getByRole('heading', { level: 1, name: 'Automation Rules' })).toBeInTheDocument();
    expect(counter('Total Conditions')).toHaveTextContent('3');
    expect(card).toHaveTextContent('Inactive');
    expect(card).toHaveTextContent('3 conditions');
    expect(card).toHaveTextContent('1 action');
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-11-20T03:04:00.000Z'),
    );
    expect(card).toHaveTextContent(`Last triggered: ${date}`);
  });

  it('shows the empty state with zero counters and a create-first-rule link', async () => {
    fakeApi({ 'GET /rules': ok([]) });
    renderPage();
    expect(await screen.findByText('ยังไม่มีกฎอัตโนมัติ')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'สร้างกฎแรกของคุณ' })).toHaveAttribute('href', '/rules/new');
    expect(counter('กฎทั้งหมด')).toHaveTextContent('0');
    expect(counter('เงื่อนไขทั้งหมด')).toHaveTextContent('0');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('toggles on the server and shows the answer: badge and counter follow the server, not a guess', async () => {
    const rule = buildRule({ name: 'Stop loss', isActive: false });
    const api = fakeApi({
      'GET /rules': ok([rule]),
      [`POST /rules/${rule.id}/preview`]: ok(buildPreview()),
      [`POST /rules/${rule.id}/toggle`]: ok({ ...rule, isActive: true }),
    });
    const { user } = renderPage();
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    const reads = api.callsTo('GET', '/rules').length;
    await user.click(within(card).getByRole('button', { name: 'เปิดใช้งานกฎ Stop loss' }));
    const dialog = await screen.findByRole('dialog', { name: 'เปิดใช้งาน “Stop loss”?' });
    await within(dialog).findByText('จากข้อมูลตอนนี้ กฎจะหยุดโฆษณา 1 รายการชั่วคราว');
    await user.click(within(dialog).getByRole('button', { name: 'เปิดใช้งาน' }));
    expect(await within(card).findByRole('button', { name: 'ปิดใช้งานกฎ Stop loss' })).toBeInTheDocument();
    expect(card).toHaveTextContent('เปิดใช้งาน');
    expect(counter('กฎที่เปิดใช้งาน')).toHaveTextContent('1');
    expect(api.callsTo('POST', `/rules/${rule.id}/toggle`)).toHaveLength(1);
    // The cache took the answer: the list was not read again.
    expect(api.callsTo('GET', '/rules')).toHaveLength(reads);
  });

  it('switching on asks first, in English: how often it checks and what it would do; Cancel sends nothing', async () => {
    setLanguageChoice('en');
    const rule = buildRule({ name: 'Stop loss', isActive: false, schedule: { everyMinutes: 60 } });
    const api = fakeApi({
      'GET /rules': ok([rule]),
      [`POST /rules/${rule.id}/preview`]: ok(buildPreview()),
      [`POST /rules/${rule.id}/toggle`]: ok({ ...rule, isActive: true }),
    });
    const { user } = renderPage();
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    await user.click(within(card).getByRole('button', { name: 'Activate rule Stop loss' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch on “Stop loss”?' });
    expect(dialog).toHaveTextContent('Once on, it checks every 60 minutes.');
    await within(dialog).findByText('On the data of now, it would pause 1 ad.');
    expect(dialog).toHaveTextContent('1 of 2 checked match. 1 change is held back by the safeguards.');
    await user.click(within(dialog).getByText('See the preview (1 change)'));
    expect(dialog).toHaveTextContent('<img src=x onerror=alert(1)> Summer');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', `/rules/${rule.id}/toggle`)).toHaveLength(0);
    expect(card).toHaveTextContent('Inactive');
  });

  it('switching off does not ask', async () => {
    const rule = buildRule({ name: 'Stop loss', isActive: true });
    const api = fakeApi({
      'GET /rules': ok([rule]),
      [`POST /rules/${rule.id}/toggle`]: ok({ ...rule, isActive: false }),
    });
    const { user } = renderPage();
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    await user.click(within(card).getByRole('button', { name: 'ปิดใช้งานกฎ Stop loss' }));
    await waitFor(() => expect(api.callsTo('POST', `/rules/${rule.id}/toggle`)).toHaveLength(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a plan refusal names the limit and the plan and links to the Subscription page; the rule stays inactive', async () => {
    const rule = buildRule({ name: 'Stop loss', isActive: false });
    fakeApi({
      'GET /rules': ok([rule]),
      [`POST /rules/${rule.id}/preview`]: ok(buildPreview()),
      [`POST /rules/${rule.id}/toggle`]: fail(
        403,
        'PLAN_LIMIT_REACHED',
        'Your plan allows no more active rules',
        undefined,
        {
          plan: 'free',
          limit: 3,
        },
      ),
    });
    const { user } = renderPage();
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    await user.click(within(card).getByRole('button', { name: 'เปิดใช้งานกฎ Stop loss' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(/จากข้อมูลตอนนี้/);
    await user.click(within(dialog).getByRole('button', { name: 'เปิดใช้งาน' }));
    expect(
      await screen.findByText('แผน Free เปิดใช้กฎได้พร้อมกัน 3 กฎ ปิดกฎหนึ่งกฎ หรืออัพเกรดแผน', { exact: false }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ดูแผนและอัพเกรด' })).toHaveAttribute('href', '/subscription');
    expect(card).toHaveTextContent('ปิดใช้งาน');
    expect(counter('กฎที่เปิดใช้งาน')).toHaveTextContent('0');
  });

  it('deletes only after confirmation, and cancel keeps the rule', async () => {
    const keep = buildRule({ name: 'Keep me' });
    const drop = buildRule({ name: 'Drop me' });
    const api = fakeApi({
      'GET /rules': ok([keep, drop]),
      [`DELETE /rules/${drop.id}`]: ok({ message: 'Rule deleted' }),
    });
    const { user } = renderPage();
    const card = await screen.findByRole('article', { name: 'Drop me' });

    await user.click(within(card).getByRole('button', { name: 'ลบ กฎ Drop me' }));
    let dialog = screen.getByRole('dialog', { name: 'ลบกฎ' });
    expect(dialog).toHaveTextContent('“Drop me”');
    await user.click(within(dialog).getByRole('button', { name: 'ยกเลิก' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE', `/rules/${drop.id}`)).toHaveLength(0);

    await user.click(within(card).getByRole('button', { name: 'ลบ กฎ Drop me' }));
    dialog = screen.getByRole('dialog', { name: 'ลบกฎ' });
    await user.click(within(dialog).getByRole('button', { name: 'ลบ' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Drop me' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Keep me' })).toBeInTheDocument();
    expect(counter('กฎทั้งหมด')).toHaveTextContent('1');
    expect(api.callsTo('DELETE', `/rules/${drop.id}`)).toHaveLength(1);
  });

  it('shows the error state with a retry when the list cannot load', async () => {
    const api = fakeApi({ 'GET /rules': fail(500, 'INTERNAL_ERROR') });
    const { user } = renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('โหลดกฎไม่สำเร็จ');
    api.on('GET /rules', ok([buildRule({ name: 'Back' })]));
    await user.click(within(alert).getByRole('button', { name: 'ลองใหม่' }));
    expect(await screen.findByRole('article', { name: 'Back' })).toBeInTheDocument();
  });
});
