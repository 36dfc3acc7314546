import type { CurrentSubscription, Plan } from '@adpilot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { buildSession, fail, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

const TEAM_ID = '00000000-0000-4000-8000-00000000000b';

const PORTAL_URL = 'https://billing.stripe.com/p/session/test_portal';

function buildSubscription(overrides: Partial<CurrentSubscription> = {}): CurrentSubscription {
  return {
    plan: 'pro',
    status: 'active',
    currentPeriodEnd: '2026-08-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    provider: 'stripe',
    canManageBilling: true,
    assignedByAdmin: false,
    aiRequestsUsed: 12,
    aiRequestsLimit: 500,
    rulesUsed: 2,
    rulesLimit: 25,
    adAccountsUsed: 1,
    adAccountsLimit: 5,
    paidByYou: true,
    pool: {
      limits: { adAccounts: 5, activeRules: 25, aiRequests: 500, seats: 3 },
      used: { adAccounts: 1, activeRules: 2, aiRequests: 12, seats: 1 },
    },
    workspaces: [],
    ...overrides,
  };
}

const PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price: 0,
    prices: [
      { currency: 'USD', amount: 0 },
      { currency: 'THB', amount: 0 },
    ],
    features: ['ad_accounts'],
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
    features: ['ad_accounts'],
    limits: { adAccounts: 5, activeRules: 25, aiRequests: 500, fastestCheckMinutes: 15, backtestDays: 30, seats: 3 },
    badge: 'popular',
  },
];

type Handlers = Parameters<typeof mockApi>[0];

/** The signed-in user's Subscription page (Thai, its content language) with `subscription` and extra answers. */
async function openPage(subscription: CurrentSubscription, handlers: Handlers = {}) {
  const session = buildSession();
  storeSession(session);
  const fetchMock = mockApi({
    'GET /auth/me': ok(session.user),
    'GET /subscription/current': ok(subscription),
    'GET /subscription/plans': ok(PLANS),
    'GET /subscription/receipts': ok([]),
    ...handlers,
  });
  const user = userEvent.setup();
  renderApp('/subscription');
  await screen.findByRole('heading', { level: 1, name: 'แผนการใช้งาน' });
  await screen.findByText(subscription.plan.toUpperCase(), { exact: true });
  return { user, fetchMock };
}

/** jsdom cannot navigate; a stand-in location records where the page sends the browser. */
function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

const portalCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([input, init]) => String(input).endsWith('/subscription/portal') && init?.method);

const MANAGE = 'จัดการการชำระเงินและวิธีชำระเงิน';
const PAST_DUE = 'ชำระเงินครั้งล่าสุดไม่สำเร็จ กรุณาอัพเดทวิธีชำระเงินเพื่อใช้แผนต่อ';

describe('Subscription page: managing billing through Stripe', () => {
  it('opens the billing portal: the button posts to the portal and sends the browser to its address', async () => {
    const assign = stubLocationAssign();
    const { user, fetchMock } = await openPage(buildSubscription(), {
      'POST /subscription/portal': ok({ url: PORTAL_URL }),
    });
    await user.click(screen.getByRole('button', { name: MANAGE }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL_URL));
    expect(assign).toHaveBeenCalledTimes(1);
    const calls = portalCalls(fetchMock);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1]?.method).toBe('POST');
  });

  it.each([
    ['past due', { status: 'past_due' as const }],
    ['cancelling', { cancelAtPeriodEnd: true }],
  ])('offers it while %s', async (_label, overrides) => {
    await openPage(buildSubscription(overrides));
    expect(screen.getByRole('button', { name: MANAGE })).toBeEnabled();
  });

  it('tells a user whose payment failed to update the payment method, beside the button', async () => {
    await openPage(buildSubscription({ status: 'past_due' }));
    expect(screen.getByText(PAST_DUE)).toBeInTheDocument();
    expect(screen.getByText('ชำระเงินไม่สำเร็จ')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MANAGE })).toBeEnabled();
  });

  it('is not shown when the server says there is nothing to manage (local billing, or no Stripe subscription)', async () => {
    await openPage(buildSubscription({ status: 'past_due', provider: 'local', canManageBilling: false }));
    expect(screen.getByRole('button', { name: 'ยกเลิกแผน' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MANAGE })).not.toBeInTheDocument();
    expect(screen.queryByText(PAST_DUE)).not.toBeInTheDocument();
  });

  it('is not shown on the free plan of a local instance', async () => {
    await openPage(buildSubscription({ plan: 'free', provider: 'local', canManageBilling: false }));
    expect(screen.queryByRole('button', { name: MANAGE })).not.toBeInTheDocument();
  });

  it('shows a refusal in the page’s language by its code, and stays on the page', async () => {
    const assign = stubLocationAssign();
    const { user } = await openPage(buildSubscription(), {
      'POST /subscription/portal': fail(409, 'BILLING_PORTAL_NO_ACCOUNT', 'There is no billing account to manage yet'),
    });
    await user.click(screen.getByRole('button', { name: MANAGE }));
    expect(await screen.findByText('ยังไม่มีบัญชีการชำระเงินให้จัดการ')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: MANAGE })).toBeEnabled();
  });

  it('shows the envelope’s own words for a refusal it has no text for', async () => {
    const assign = stubLocationAssign();
    const { user } = await openPage(buildSubscription(), {
      // A code this build of the page has no words for (a newer server).
      'POST /subscription/portal': fail(409, 'BILLING_ACCOUNT_LOCKED', 'Billing is managed by your organisation'),
    });
    await user.click(screen.getByRole('button', { name: MANAGE }));
    expect(await screen.findByText('Billing is managed by your organisation')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the page’s own text when the payment provider fails (502), not the server’s English', async () => {
    stubLocationAssign();
    const { user } = await openPage(buildSubscription(), {
      'POST /subscription/portal': fail(
        502,
        'BILLING_PROVIDER_ERROR',
        'The payment provider could not be reached. Please try again.',
      ),
    });
    await user.click(screen.getByRole('button', { name: MANAGE }));
    expect(await screen.findByText('เกิดข้อผิดพลาดในการเปิดหน้าจัดการการชำระเงิน')).toBeInTheDocument();
  });

  it('speaks English when the user chose English', async () => {
    const assign = stubLocationAssign();
    const { user } = await openPage(buildSubscription(), {
      'POST /subscription/portal': ok({ url: PORTAL_URL }),
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'en');
    const main = within(await screen.findByRole('main'));
    await user.click(await main.findByRole('button', { name: 'Manage billing & payment method' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL_URL));
  });
});

describe('Subscription page: seats', () => {
  const PERSONAL_ID = '00000000-0000-4000-8000-00000000000a';
  const member = (n: number) => ({ userId: `u${n}`, name: `Member ${n}`, email: `m${n}@example.com`, role: 'editor' });
  const seats = (name: string) => within(screen.getByRole('article', { name })).getByRole('list');

  it('each plan card names its seats, and the owner sees members and pending invitations against them', async () => {
    const enterprise: Plan = {
      ...PLANS[1]!,
      id: 'enterprise',
      name: 'Enterprise',
      limits: { ...PLANS[1]!.limits, seats: -1 },
      badge: null,
    };
    const session = buildSession();
    storeSession(session);
    mockApi({
      'GET /auth/me': ok(session.user),
      'GET /workspaces': ok([{ id: PERSONAL_ID, name: session.user.name, role: 'owner', personal: true }]),
      [`GET /workspaces/${PERSONAL_ID}/members`]: ok([member(1), member(2)]),
      [`GET /workspaces/${PERSONAL_ID}/invitations`]: ok([{ id: 'i1', email: 'new@example.com', role: 'viewer' }]),
      'GET /subscription/current': ok(buildSubscription()),
      'GET /subscription/plans': ok([...PLANS, enterprise]),
    });
    const user = userEvent.setup();
    renderApp('/subscription');
    expect(await screen.findByRole('meter', { name: 'สมาชิก' })).toHaveAttribute('aria-valuetext', '3 / 3');
    expect(within(seats('Free')).getByText('1 ที่นั่ง (ผู้แก้ไข ผู้ดูแล เจ้าของ) รวมทุกเวิร์กสเปซของคุณ')).toBeInTheDocument();
    expect(within(seats('Pro')).getByText('3 ที่นั่ง (ผู้แก้ไข ผู้ดูแล เจ้าของ) รวมทุกเวิร์กสเปซของคุณ')).toBeInTheDocument();
    expect(within(seats('Enterprise')).getByText('ที่นั่งไม่จำกัด')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'en');
    expect(
      await within(seats('Free')).findByText('1 seat (editors, admins, owners) across all your workspaces'),
    ).toBeInTheDocument();
    expect(
      within(seats('Pro')).getByText('3 seats (editors, admins, owners) across all your workspaces'),
    ).toBeInTheDocument();
    expect(within(seats('Enterprise')).getByText('Unlimited seats')).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Members' })).toHaveAttribute('aria-valuetext', '3 / 3');
  });

  it('shows no members meter to whom cannot read the invitations', async () => {
    chooseWorkspace(TEAM_ID);
    await openPage(buildSubscription(), {
      'GET /workspaces': ok([{ id: TEAM_ID, name: 'Acme Agency', role: 'viewer', personal: false }]),
    });
    expect(screen.getByRole('meter', { name: 'บัญชีโฆษณา' })).toBeInTheDocument();
    expect(screen.queryByRole('meter', { name: 'สมาชิก' })).not.toBeInTheDocument();
    expect(within(seats('Pro')).getByText('3 ที่นั่ง (ผู้แก้ไข ผู้ดูแล เจ้าของ) รวมทุกเวิร์กสเปซของคุณ')).toBeInTheDocument();
  });
});

const upgradeCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([input, init]) => String(input).endsWith('/subscription/upgrade') && init?.method);

describe('Subscription page: a plan change asks first (ADR 0058)', () => {
  it('states the new price and limits and how many active rules a downgrade switches off; Cancel sends nothing', async () => {
    const local = buildSubscription({ plan: 'pro', provider: 'local', canManageBilling: false, rulesUsed: 5 });
    const { user, fetchMock } = await openPage(local, {
      'POST /subscription/upgrade': ok({ subscription: { ...local, plan: 'free' } }),
    });
    await user.click(screen.getByRole('button', { name: 'เลือกแผน Free' }));
    const dialog = screen.getByRole('dialog', { name: 'เปลี่ยนเป็นแผน Free?' });
    expect(dialog).toHaveTextContent('แผน Free: ฿0.00 ต่อเดือน');
    expect(dialog).toHaveTextContent('กฎที่เปิดใช้งาน 3 กฎ');
    expect(dialog).toHaveTextContent('คุณมีกฎที่เปิดใช้งาน 5 กฎ แต่แผนนี้เปิดได้ 3 กฎ: กฎที่สร้างล่าสุด 2 กฎจะถูกปิด');
    expect(dialog).toHaveTextContent('กฎที่เปิดใช้งานและตรวจสอบถี่กว่านี้จะทำงานทุก 60 นาที');
    await user.click(within(dialog).getByRole('button', { name: 'ใช้แผนเดิมต่อ' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(upgradeCalls(fetchMock)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'เลือกแผน Free' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'เปลี่ยนเป็นแผน Free' }));
    expect(await screen.findByText('แผนการใช้งานได้รับการอัพเดทแล้ว!')).toBeInTheDocument();
    expect(upgradeCalls(fetchMock)).toHaveLength(1);
  });

  it('an upgrade through the payment provider says the payment is confirmed on the next page, in English', async () => {
    const free = buildSubscription({ plan: 'free', provider: 'stripe', canManageBilling: false, rulesUsed: 2 });
    const { user } = await openPage(free);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'en');
    const main = within(await screen.findByRole('main'));
    await user.click(await main.findByRole('button', { name: 'Choose Pro' }));
    const dialog = screen.getByRole('dialog', { name: 'Switch to Pro?' });
    expect(dialog).toHaveTextContent('Pro: $29.00 a month.');
    expect(dialog).not.toHaveTextContent('฿');
    // PromptPay is baht's: not offered on a page in dollars.
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'It includes 5 ad accounts, 25 active rules, 500 AI requests a month, and rule checks as often as every 15 minutes.',
    );
    expect(dialog).toHaveTextContent('You will confirm the payment on the next page');
    expect(dialog).not.toHaveTextContent('switched off');
  });
});

describe('plans the instance administrator assigns', () => {
  const ASK_ADMIN = 'แผนบน AdPilot นี้กำหนดโดยผู้ดูแลระบบ';

  it('says how to ask the administrator instead of offering the plan buttons', async () => {
    await openPage(
      buildSubscription({ plan: 'pro', provider: 'local', canManageBilling: false, assignedByAdmin: true }),
    );
    expect(screen.getByText(ASK_ADMIN)).toBeInTheDocument();
    expect(screen.getByText(/การตั้งค่า → ผู้ใช้/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'เลือกแผน Free' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'แผนปัจจุบัน' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'ยกเลิกแผน' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Pro' })).getByText('แผนปัจจุบัน')).toBeInTheDocument();
  });

  it('offers the buttons where users choose their plan (the sandbox demo)', async () => {
    await openPage(buildSubscription({ plan: 'pro', provider: 'local', canManageBilling: false }));
    expect(screen.queryByText(ASK_ADMIN)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'เลือกแผน Free' })).toBeEnabled();
  });
});

describe('Subscription page: the pool', () => {
  it('lists every workspace the plan covers with its use, and the pooled total against the limits', async () => {
    await openPage(
      buildSubscription({
        pool: {
          limits: { adAccounts: 5, activeRules: 25, aiRequests: 500, seats: 3 },
          used: { adAccounts: 3, activeRules: 7, aiRequests: 40, seats: 2 },
        },
        workspaces: [
          {
            id: '00000000-0000-4000-8000-0000000000a1',
            name: 'Ann',
            personal: true,
            used: { adAccounts: 1, activeRules: 2, aiRequests: 10, seats: 1 },
          },
          {
            id: TEAM_ID,
            name: 'Client A',
            personal: false,
            used: { adAccounts: 2, activeRules: 5, aiRequests: 30, seats: 2 },
          },
        ],
      }),
    );
    const table = within(screen.getByRole('table'));
    expect(screen.getByText('แผนของคุณครอบคลุมทั้ง 2 เวิร์กสเปซที่คุณเป็นเจ้าของ', { exact: false })).toBeInTheDocument();
    const client = table.getByRole('row', { name: /Client A/ });
    expect(
      within(client)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', '5', '30', '2']);
    expect(table.getByRole('rowheader', { name: 'Ann (ส่วนตัว)' })).toBeInTheDocument();
    const total = table.getByRole('row', { name: /รวม/ });
    expect(
      within(total)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['3 / 5', '7 / 25', '40 / 500', '2 / 3']);
  });

  it("says so when another owner's plan covers the workspace", async () => {
    await openPage(buildSubscription({ paidByYou: false }));
    expect(screen.getByText('เวิร์กสเปซนี้อยู่ในแผนของเจ้าของที่เป็นผู้ชำระ', { exact: false })).toBeInTheDocument();
  });
});

describe('Subscription page: prices in baht (ADR 0114)', () => {
  it('shows a Thai page the set baht price, and pays in THB by PromptPay when chosen', async () => {
    const assign = stubLocationAssign();
    const free = buildSubscription({ plan: 'free', provider: 'stripe', canManageBilling: false, rulesUsed: 2 });
    const { user, fetchMock } = await openPage(free, {
      'POST /subscription/upgrade': ok({ subscription: free, url: 'https://invoice.stripe.com/i/acct_x/test_1' }),
    });
    const main = within(await screen.findByRole('main'));
    expect(main.getByRole('article', { name: 'Pro' })).toHaveTextContent('฿990.00/เดือน');
    expect(main.queryByText(/≈/)).not.toBeInTheDocument();
    await user.click(main.getByRole('button', { name: 'เลือกแผน Pro' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('แผน Pro: ฿990.00 ต่อเดือน');
    await user.click(within(dialog).getByRole('checkbox', { name: /ชำระด้วยพร้อมเพย์/ }));
    await user.click(within(dialog).getByRole('button', { name: 'เปลี่ยนเป็นแผน Pro' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://invoice.stripe.com/i/acct_x/test_1'));
    const [call] = upgradeCalls(fetchMock);
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ planId: 'pro', currency: 'THB', paymentMethod: 'promptpay' });
  });
});

describe('Subscription page: receipts (ADR 0115)', () => {
  it('lists the payer’s receipts with their VAT, and asks for the PDF in the page’s language', async () => {
    const { user, fetchMock } = await openPage(buildSubscription(), {
      'GET /subscription/receipts': ok([
        {
          id: 'in_1',
          number: 'ADP-0042',
          paidAt: '2026-11-30T10:00:00.000Z',
          currency: 'THB',
          total: 990,
          vat: { rate: 7, net: 925.23, amount: 64.77 },
        },
      ]),
      'GET /subscription/receipts/in_1.pdf': ok('%PDF-'),
    });
    const card = within((await screen.findByRole('heading', { name: 'ใบเสร็จรับเงิน' })).closest('div')!);
    expect(await card.findByText(/ADP-0042/)).toHaveTextContent('฿990.00');
    expect(card.getByText(/ADP-0042/)).toHaveTextContent('ภาษีมูลค่าเพิ่ม 7%: ฿64.77');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    await user.click(card.getByRole('button', { name: 'ดาวน์โหลด PDF' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith('/receipts/in_1.pdf?language=th'))).toBe(
        true,
      ),
    );
  });

  it('says local billing has no receipts', async () => {
    await openPage(buildSubscription({ provider: 'local', canManageBilling: false }));
    expect(await screen.findByText(/จึงไม่มีใบเสร็จ/)).toBeInTheDocument();
  });
});
