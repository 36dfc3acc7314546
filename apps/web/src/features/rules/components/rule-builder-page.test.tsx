import { RULE_TEMPLATES, scaleTemplate, type CreateRuleRequest, type Plan } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fail, fakeApi, ok, TEMPLATES } from '../test/fake-api.ts';
import { buildPreview } from '../test/fixtures.ts';
import { renderRulesRoute } from '../test/render-page.tsx';
import { EditRulePage, NewRulePage } from './rule-builder-page.tsx';

const ACCOUNT = {
  id: '00000000-0000-4000-8000-0000000000aa',
  facebook_account_name: 'Sandbox Shop',
};

function api() {
  return fakeApi({
    'GET /rules/templates': ok(TEMPLATES),
    'GET /ad-accounts': ok([{ ...ACCOUNT, sync_status: 'idle' }]),
  });
}

const renderNew = () => renderRulesRoute('/rules/new', '/rules/new', <NewRulePage />);

describe('rule builder', () => {
  it('starts from the scale-winners template with its Thai name and every field filled in, and creates it', async () => {
    const fake = api();
    fake.on('POST /rules', (call) => ok({ ...buildRule(), ...(call.body as object), id: buildRule().id }, 201));
    const { user } = renderNew();

    await user.click(await screen.findByRole('button', { name: /เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี/ }));
    expect(screen.getByLabelText('ชื่อกฎ')).toHaveValue('เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี');
    expect(screen.getByLabelText('ระดับ')).toHaveValue('adset');
    const action = screen.getByRole('group', { name: 'การดำเนินการที่ 1' });
    expect(within(action).getByLabelText('การดำเนินการ')).toHaveValue('increase_budget');
    expect(within(action).getByLabelText('จำนวน')).toHaveValue(20);
    expect(within(action).getByLabelText('เพดาน (ไม่บังคับ)')).toHaveValue(5000);
    expect(within(action).getByLabelText('ขั้นต่ำ (ไม่บังคับ)')).toHaveValue(null);
    expect(screen.getAllByRole('group', { name: /^เงื่อนไขที่ \d$/ })).toHaveLength(2);

    await user.click(await screen.findByRole('checkbox', { name: 'Sandbox Shop' }));
    await user.click(screen.getByRole('button', { name: 'สร้างกฎ' }));

    await waitFor(() => expect(fake.callsTo('POST', '/rules')).toHaveLength(1));
    const body = fake.callsTo('POST', '/rules')[0]?.body as CreateRuleRequest;
    expect(body.name).toBe('เพิ่มงบให้ชุดโฆษณาที่ ROAS ดี');
    expect(body.scope).toEqual({ adAccountIds: [ACCOUNT.id], level: 'adset', statuses: ['ACTIVE'] });
    // The empty floor is left out, not sent as NaN or null.
    expect(body.actions).toEqual([{ type: 'increase_budget', by: 20, unit: 'percent', ceiling: 5000 }]);
    expect(body.schedule).toEqual({ dailyAt: '09:00' });
    expect(await screen.findByTestId('address')).toHaveTextContent(/^\/rules\/[0-9a-f-]{36}$/);
  });

  it('builds a budget boost for a window and sends it as the API takes it', async () => {
    setLanguageChoice('en');
    const fake = api();
    fake.on('POST /rules', (call) => ok({ ...buildRule(), ...(call.body as object), id: buildRule().id }, 201));
    const { user } = renderNew();

    await user.click(await screen.findByRole('button', { name: /Scale winners on ROAS/ }));
    const action = screen.getByRole('group', { name: 'Action 1' });
    await user.selectOptions(within(action).getByLabelText('Action'), 'boost_budget');
    const boost = screen.getByRole('group', { name: 'Action 1' });
    expect(within(boost).getByLabelText('From (local)')).toHaveValue('18:00');
    expect(within(boost).getByLabelText('To (local)')).toHaveValue('22:00');
    await user.clear(within(boost).getByLabelText('By'));
    await user.type(within(boost).getByLabelText('By'), '50');
    expect(screen.getAllByText(/Raise its own budget by 50% from 18:00 to 22:00/).length).toBeGreaterThan(0);

    await user.click(await screen.findByRole('checkbox', { name: 'Sandbox Shop' }));
    await user.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(fake.callsTo('POST', '/rules')).toHaveLength(1));
    const body = fake.callsTo('POST', '/rules')[0]?.body as CreateRuleRequest;
    expect(body.actions).toEqual([{ type: 'boost_budget', by: 50, unit: 'percent', from: '18:00', to: '22:00' }]);
  });

  it('"Ask AI" opens the draft for review, switched off, and saves nothing until the user creates it', async () => {
    const fake = api();
    const draftRule = {
      ...TEMPLATES[0]!.rule,
      name: 'หยุด โฆษณา: CPA > 500',
      description: 'หยุดโฆษณาที่มี CPA เกิน 500 บาท',
      isActive: true,
    };
    fake.on('POST /ai/draft-rule', ok({ rule: draftRule, explanation: 'หยุดโฆษณาที่ CPA > 500', language: 'th' }));
    fake.on('POST /rules', (call) => ok({ ...buildRule(), ...(call.body as object), id: buildRule().id }, 201));
    const { user } = renderNew();

    const submit = await screen.findByRole('button', { name: 'ร่างกฎ' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('อธิบายกฎที่ต้องการ'), 'หยุดโฆษณาที่มี CPA เกิน 500 บาท');
    await user.click(submit);
    expect(await screen.findByTestId('ai-draft-explanation')).toHaveTextContent('หยุดโฆษณาที่ CPA > 500');
    expect(fake.callsTo('POST', '/ai/draft-rule')[0]?.body).toEqual({ prompt: 'หยุดโฆษณาที่มี CPA เกิน 500 บาท' });
    expect(screen.getByLabelText('ชื่อกฎ')).toHaveValue('หยุด โฆษณา: CPA > 500');
    expect(fake.callsTo('POST', '/rules')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'สร้างกฎ' }));
    await waitFor(() => expect(fake.callsTo('POST', '/rules')).toHaveLength(1));
    // A draft is never switched on by itself, even if the answer said so.
    expect((fake.callsTo('POST', '/rules')[0]?.body as CreateRuleRequest).isActive).toBe(false);
  });

  it('says why when the AI could not read the request', async () => {
    const fake = api();
    fake.on('POST /ai/draft-rule', fail(422, 'AI_DRAFT_NOT_UNDERSTOOD', 'not understood'));
    const { user } = renderNew();
    await user.type(await screen.findByLabelText('อธิบายกฎที่ต้องการ'), 'สวัสดี');
    await user.click(screen.getByRole('button', { name: 'ร่างกฎ' }));
    expect(await screen.findByText(/ไม่สามารถแปลงเป็นกฎได้/)).toBeInTheDocument();
    expect(screen.queryByLabelText('ชื่อกฎ')).not.toBeInTheDocument();
  });

  it('names the templates in English when the user chose English', async () => {
    setLanguageChoice('en');
    api();
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /Scale winners on ROAS/ }));
    expect(screen.getByLabelText('Rule name')).toHaveValue('Scale winners on ROAS');
  });

  it('offers the templates in the accounts’ currency, named, and scopes a picked one to that currency’s accounts', async () => {
    setLanguageChoice('en');
    const yen = ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'];
    const fake = fakeApi({
      'GET /rules/templates': (call) =>
        ok(RULE_TEMPLATES.map((template) => scaleTemplate(template, call.query.get('currency') ?? 'THB'))),
      'GET /ad-accounts': ok([
        { id: yen[0], facebook_account_name: 'Tokyo', currency: 'JPY', sync_status: 'idle' },
        { id: ACCOUNT.id, facebook_account_name: 'Bangkok', currency: 'THB', sync_status: 'idle' },
        { id: yen[1], facebook_account_name: 'Osaka', currency: 'JPY', sync_status: 'idle' },
      ]),
    });
    const { user } = renderNew();
    expect(await screen.findByTestId('template-currency')).toHaveTextContent(/^Amounts in JPY, as your account bills/);
    expect(
      fake.calls
        .filter((call) => call.path === '/rules/templates')
        .at(-1)
        ?.query.get('currency'),
    ).toBe('JPY');
    const card = await screen.findByRole('button', { name: /Scale winners on ROAS/ });
    expect(card).toHaveTextContent('(up to ¥20,000)');
    expect(screen.getByLabelText('Amounts in')).toHaveValue('JPY');

    await user.click(card);
    const action = screen.getByRole('group', { name: 'Action 1' });
    expect(within(action).getByLabelText('Ceiling (optional)')).toHaveValue(20_000);
    expect(await screen.findByRole('checkbox', { name: 'Tokyo' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Osaka' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Bangkok' })).not.toBeChecked();
  });

  it('validates live with the contracts’ rules, in Thai', async () => {
    const fake = api();
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /กฎเปล่า/ }));

    await user.click(screen.getByRole('button', { name: 'สร้างกฎ' }));
    expect(await screen.findByText('กรุณากรอกชื่อกฎ')).toBeInTheDocument();

    // A budget action at ad level is refused on the action's type.
    await user.selectOptions(
      within(screen.getByRole('group', { name: 'การดำเนินการที่ 1' })).getByLabelText('การดำเนินการ'),
      'increase_budget',
    );
    // A new type is a new row: find it again.
    const action = screen.getByRole('group', { name: 'การดำเนินการที่ 1' });
    expect(await screen.findByText('โฆษณาไม่มีงบประมาณ การปรับงบต้องใช้ระดับแคมเปญหรือชุดโฆษณา')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('ระดับ'), 'adset');
    await waitFor(() =>
      expect(screen.queryByText('โฆษณาไม่มีงบประมาณ การปรับงบต้องใช้ระดับแคมเปญหรือชุดโฆษณา')).not.toBeInTheDocument(),
    );

    const by = within(action).getByLabelText('จำนวน');
    await user.clear(by);
    await user.type(by, '0');
    expect(await screen.findByText('เปอร์เซ็นต์ต้องมากกว่า 0 และไม่เกิน 1000')).toBeInTheDocument();

    // between with the low end above the high end.
    const condition = screen.getByRole('group', { name: 'เงื่อนไขที่ 1' });
    await user.selectOptions(within(condition).getByLabelText('การเปรียบเทียบ'), 'between');
    const low = within(condition).getByLabelText('ตั้งแต่');
    await user.clear(low);
    await user.type(low, '900');
    expect(await screen.findByText('ค่าต่ำสุดต้องไม่มากกว่าค่าสูงสุด')).toBeInTheDocument();

    await user.type(screen.getByLabelText('ชื่อกฎ'), 'x');
    await waitFor(() => expect(screen.queryByText('กรุณากรอกชื่อกฎ')).not.toBeInTheDocument());
    expect(fake.callsTo('POST', '/rules')).toHaveLength(0);
  });

  it('validates in English when the user chose English, and nests groups down to three levels only', async () => {
    setLanguageChoice('en');
    api();
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /Blank rule/ }));
    await user.click(screen.getByRole('button', { name: 'Create rule' }));
    expect(await screen.findByText('Rule name is required')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    expect(await screen.findByText('Add at least one condition')).toBeInTheDocument();

    const top = screen.getByRole('group', { name: 'Conditions' });
    await user.click(within(top).getAllByRole('button', { name: 'Add group' }).at(-1) as HTMLElement);
    const second = screen.getByRole('group', { name: 'Group 1' });
    await user.click(within(second).getByRole('button', { name: 'Add group' }));
    const third = within(second).getByRole('group', { name: 'Group 2' });
    // The third level offers conditions only.
    expect(within(third).queryByRole('button', { name: 'Add group' })).not.toBeInTheDocument();
    expect(within(third).getByRole('button', { name: 'Add condition' })).toBeInTheDocument();
  });

  it('shows the server’s field errors on their fields by code, and the preview of an unsaved body', async () => {
    const fake = api();
    fake.on(
      'POST /rules/preview',
      fail(400, 'VALIDATION_ERROR', 'This ad account is not one of yours', [
        { field: 'scope.adAccountIds.0', message: 'This ad account is not one of yours' },
      ]),
    );
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /หยุดขาดทุนเมื่อ CPA สูง/ }));
    await user.click(await screen.findByRole('checkbox', { name: 'Sandbox Shop' }));
    await user.click(screen.getByRole('button', { name: 'ดูตัวอย่าง' }));
    expect(await screen.findByText('บัญชีโฆษณานี้ไม่ใช่ของคุณ')).toBeInTheDocument();

    fake.on('POST /rules/preview', ok(buildPreview()));
    await user.click(screen.getByRole('button', { name: 'ดูตัวอย่าง' }));
    const panel = screen.getByRole('complementary', { name: 'ตัวอย่าง' });
    const matched = await within(panel).findByRole('group', { name: '<img src=x onerror=alert(1)> Summer' });
    expect(panel.querySelector('img')).toBeNull();
    expect(matched).toHaveTextContent('ตรงเงื่อนไข');
    expect(matched).toHaveTextContent('CPA (7 วันล่าสุด รวมวันนี้) เท่ากับ 620.5, มากกว่า 500: เป็นจริง');
    expect(matched).toHaveTextContent('ข้อใดข้อหนึ่งต่อไปนี้');
    expect(matched).toHaveTextContent('ทุกข้อต่อไปนี้ (ไม่เป็นจริง)');
    expect(matched).toHaveTextContent('หยุดชั่วคราว — สถานะ ACTIVE → PAUSED');
    expect(matched).toHaveTextContent('แจ้งเตือน — ข้าม: อยู่ในช่วงพัก 24 ชั่วโมง จนถึง');
    const quiet = within(panel).getByRole('group', { name: 'Quiet ad' });
    expect(quiet).toHaveTextContent('ยังไม่ประเมิน: ยอดใช้จ่าย 40 ยังไม่ถึงขั้นต่ำ 100');
    expect(quiet).toHaveTextContent('ไม่มีค่า');
    expect(panel).toHaveTextContent('ตรวจสอบ 2 รายการ ตรงเงื่อนไข 1 วางแผนเปลี่ยน 1 ข้าม 1');
    expect(panel).toHaveTextContent('การเพิ่มงบประมาณไม่มีเพดาน');
    // No raw code reaches the page.
    expect(panel).not.toHaveTextContent(/min_spend_not_reached|cooldown|budget_increase_without_ceiling/);
    expect(fake.callsTo('POST', '/rules/preview').at(-1)?.body).toMatchObject({ scope: { level: 'ad' } });
  });

  it('edits a stored rule with a PATCH of the whole body', async () => {
    const rule = buildRule({ name: 'Old name' });
    const fake = api();
    fake.on(`GET /rules/${rule.id}`, ok(rule));
    fake.on(`PATCH /rules/${rule.id}`, (call) => ok({ ...rule, ...(call.body as object) }));
    const { user } = renderRulesRoute(`/rules/${rule.id}/edit`, '/rules/:id/edit', <EditRulePage />);
    const name = await screen.findByLabelText('ชื่อกฎ');
    expect(name).toHaveValue('Old name');
    await user.clear(name);
    await user.type(name, 'New name');
    await user.click(screen.getByRole('button', { name: 'บันทึกการเปลี่ยนแปลง' }));
    await waitFor(() => expect(fake.callsTo('PATCH', `/rules/${rule.id}`)).toHaveLength(1));
    expect(fake.callsTo('PATCH', `/rules/${rule.id}`)[0]?.body).toMatchObject({
      name: 'New name',
      conditions: rule.conditions,
      actions: rule.actions,
    });
    expect(await screen.findByTestId('address')).toHaveTextContent(`/rules/${rule.id}`);
  });

  it("offers only the intervals the user's plan allows, and moves a new rule off a faster one", async () => {
    const fake = planApi('free');
    fake.on(
      'POST /ai/draft-rule',
      ok({ rule: { ...TEMPLATES[0]!.rule, schedule: { everyMinutes: 15 } }, explanation: 'x', language: 'th' }),
    );
    const { user } = renderNew();
    await user.type(await screen.findByLabelText('อธิบายกฎที่ต้องการ'), 'หยุดโฆษณาที่มี CPA เกิน 500 บาท ทุก 15 นาที');
    await user.click(screen.getByRole('button', { name: 'ร่างกฎ' }));
    await screen.findByTestId('ai-draft-explanation');
    const every = screen.getByLabelText('ทุก');
    // The free plan checks hourly at most: the faster intervals are there, disabled and labelled.
    await waitFor(() => expect(within(every).getByRole('option', { name: '5 นาที (ต้องใช้แผนที่สูงกว่า)' })).toBeDisabled());
    expect(within(every).getByRole('option', { name: '15 นาที (ต้องใช้แผนที่สูงกว่า)' })).toBeDisabled();
    expect(within(every).getByRole('option', { name: '30 นาที (ต้องใช้แผนที่สูงกว่า)' })).toBeDisabled();
    expect(within(every).getByRole('option', { name: '60 นาที' })).toBeEnabled();
    expect(screen.getByText('แผนของคุณตรวจกฎได้ถี่สุดทุก 60 นาที การตรวจที่ถี่กว่านี้ต้องใช้แผนที่สูงกว่า')).toBeVisible();
    // The draft asked for every 15 minutes; the new rule starts on the plan's fastest instead.
    expect(every).toHaveValue('60');
  });

  it('labels the intervals in English and allows every 15 minutes on Pro', async () => {
    setLanguageChoice('en');
    planApi('pro');
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /Blank rule/ }));
    const every = screen.getByLabelText('Every');
    await waitFor(() =>
      expect(within(every).getByRole('option', { name: '5 minutes (needs a higher plan)' })).toBeDisabled(),
    );
    expect(within(every).getByRole('option', { name: '15 minutes' })).toBeEnabled();
    expect(every).toHaveValue('60');
    await user.selectOptions(every, '15');
    expect(every).toHaveValue('15');
    // Back from once a day, it runs as often as the plan allows.
    await user.selectOptions(screen.getByLabelText('Runs'), 'daily');
    await user.selectOptions(screen.getByLabelText('Runs'), 'every');
    expect(screen.getByLabelText('Every')).toHaveValue('15');
  });

  it('sets dayparting windows, says them in the summary, checks them and sends them', async () => {
    setLanguageChoice('en');
    const fake = api();
    fake.on('POST /rules', (call) => ok({ ...buildRule(), ...(call.body as object), id: buildRule().id }, 201));
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /Blank rule/ }));
    await user.selectOptions(screen.getByLabelText('Runs'), 'windows');
    const summary = screen.getByRole('region', { name: 'The rule in plain words' });
    expect(summary).toHaveTextContent("Active Mon–Fri 08:00–20:00 in each ad account's time zone");

    await user.click(screen.getByRole('checkbox', { name: 'Fri' }));
    const to = screen.getByLabelText('To');
    await user.clear(to);
    await user.type(to, '07:00');
    await user.tab();
    expect(await screen.findByText('The window must end after it starts')).toBeInTheDocument();
    await user.clear(to);
    await user.type(to, '24:00');
    await waitFor(() => expect(screen.queryByText('The window must end after it starts')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Add window' }));
    expect(summary).toHaveTextContent('Active Mon–Thu 08:00–24:00; Mon–Fri 08:00–20:00');

    await user.type(screen.getByLabelText('Rule name'), 'Weekday hours');
    await user.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(fake.callsTo('POST', '/rules')).toHaveLength(1));
    const body = fake.callsTo('POST', '/rules')[0]?.body as CreateRuleRequest;
    expect(body.schedule).toEqual({
      windows: [
        { days: [1, 2, 3, 4], from: '08:00', to: '24:00' },
        { days: [1, 2, 3, 4, 5], from: '08:00', to: '20:00' },
      ],
    });
  });

  it('shows a window refusal in Thai: a dayparting rule needs a pause', async () => {
    const fake = api();
    fake.on('POST /rules', (call) => ok({ ...buildRule(), ...(call.body as object), id: buildRule().id }, 201));
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /กฎเปล่า/ }));
    await user.selectOptions(screen.getByLabelText('ทำงาน'), 'windows');
    expect(screen.getByRole('checkbox', { name: 'จันทร์' })).toBeChecked();
    await user.selectOptions(
      within(screen.getByRole('group', { name: 'การดำเนินการที่ 1' })).getByLabelText('การดำเนินการ'),
      'notify',
    );
    await user.click(screen.getByRole('button', { name: 'สร้างกฎ' }));
    expect(await screen.findByText('กฎตามช่วงเวลาจะหยุดโฆษณาชั่วคราวนอกช่วงเวลา: เพิ่มการกระทำหยุดชั่วคราว')).toBeInTheDocument();
    expect(fake.callsTo('POST', '/rules')).toHaveLength(0);
  });

  it('holds nothing back while the plan cannot be read', async () => {
    setLanguageChoice('en');
    api();
    const { user } = renderNew();
    await user.click(await screen.findByRole('button', { name: /Blank rule/ }));
    const every = screen.getByLabelText('Every');
    expect(within(every).getByRole('option', { name: '5 minutes' })).toBeEnabled();
  });
});

const PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price: 0,
    prices: [
      { currency: 'USD', amount: 0 },
      { currency: 'THB', amount: 0 },
    ],
    features: [],
    limits: { adAccounts: 1, activeRules: 3, aiRequests: 30, fastestCheckMinutes: 60, backtestDays: 30, seats: 1 },
    badge: null,
  },
  {
    id: 'pro',
    name: 'Pro',
    price: 29,
    prices: [
      { currency: 'USD', amount: 29 },
      { currency: 'THB', amount: 990 },
    ],
    features: [],
    limits: { adAccounts: 5, activeRules: 25, aiRequests: 500, fastestCheckMinutes: 15, backtestDays: 30, seats: 3 },
    badge: 'popular',
  },
];

/** The builder's answers with the user on `plan`. */
function planApi(plan: Plan['id']) {
  const fake = api();
  fake.on('GET /subscription/plans', ok(PLANS));
  fake.on('GET /subscription/current', ok({ plan, status: 'active' }));
  return fake;
}
