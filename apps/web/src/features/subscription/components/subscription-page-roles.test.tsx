import type { CurrentSubscription } from '@adpilot/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { buildSession, mockApi, ok, renderApp, storeSession } from '../../../test/render-app.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000b';

const SUBSCRIPTION: CurrentSubscription = {
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
};

const FREE = {
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
};

/** The Subscription page (Thai, its content language) of a team workspace the user is an admin of. */
async function openAsAdmin() {
  const session = buildSession();
  storeSession(session);
  chooseWorkspace(TEAM);
  mockApi({
    'GET /auth/me': ok(session.user),
    'GET /workspaces': ok([{ id: TEAM, name: 'Acme Agency', role: 'admin', personal: false }]),
    'GET /subscription/current': ok(SUBSCRIPTION),
    'GET /subscription/plans': ok([FREE]),
  });
  renderApp('/subscription');
  await screen.findByText('PRO', { exact: true });
}

describe('Subscription page by role', () => {
  it('shows the plan to a non-owner read-only, with the reason', async () => {
    await openAsAdmin();
    expect(await screen.findByRole('note')).toHaveTextContent('เฉพาะเจ้าของเวิร์กสเปซเท่านั้นที่เปลี่ยนแผน');
    expect(screen.queryByRole('button', { name: 'ยกเลิกแผน' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'จัดการการชำระเงินและวิธีชำระเงิน' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'เลือกแผน Free' })).toBeDisabled();
  });
});
