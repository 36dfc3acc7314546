import type { Proposal } from '@adpilot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { i18n, setLanguageChoice } from '../../../lib/i18n.ts';
import { formatMoney } from '../../../lib/format.ts';
import { fail, fakeApi, ok } from '../../../test/fake-api.ts';
import { InboxPage } from './inbox-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000b';
const RUN = '00000000-0000-4000-8000-0000000000a1';
/** As the page shows it, with the no-break space the matchers see as a space. */
const baht = (value: number) => formatMoney(value, 'THB', 'en').replace(/\s/g, ' ');

function buildProposal(id: string, name: string, overrides: Partial<Proposal> = {}): Proposal {
  const entity = { adAccountId: '00000000-0000-4000-8000-0000000000c1', level: 'adset' as const, externalId: id, name };
  return {
    id: `00000000-0000-4000-8000-${id.padStart(12, '0')}`,
    ruleId: '00000000-0000-4000-8000-0000000000d1',
    ruleName: 'Scale winners',
    runId: RUN,
    actor: { type: 'rule', id: null, name: null },
    entity,
    target: entity,
    action: 'increase_budget',
    field: 'daily_budget',
    from: 1000,
    to: 1200,
    currency: 'THB',
    explanation: { decision: 'matched', notJudged: null, settling: false, conditions: null },
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 5 * 3_600_000).toISOString(),
    status: 'pending',
    decidedAt: null,
    decidedBy: null,
    ...overrides,
  };
}

function openInboxAs(role: 'viewer' | 'editor', proposals: Proposal[], closed: Proposal[] = []) {
  chooseWorkspace(TEAM);
  setLanguageChoice('en');
  const api = fakeApi({
    'GET /proposals': (call) => {
      const status = call.query.get('status');
      return ok(status === 'pending' ? proposals : closed.filter((proposal) => proposal.status === status));
    },
    'GET /workspaces': ok([{ id: TEAM, name: 'Acme Agency', role, personal: false }]),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <InboxPage />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { api, user: userEvent.setup() };
}

describe('InboxPage', () => {
  it('asks before approving, with the change in the account currency, then approves', async () => {
    const proposal = buildProposal('1', 'Ad set A');
    const { api, user } = openInboxAs('editor', [proposal, buildProposal('2', 'Ad set B')]);
    api.on(`POST /proposals/${proposal.id}/approve`, ok({ proposal: { ...proposal, status: 'approved' } }));
    const row = (await screen.findByText(/“Ad set A”/)).closest('li') as HTMLElement;
    expect(row).toHaveTextContent(`Raise the budget of ad set “Ad set A”: ${baht(1000)} → ${baht(1200)}`);
    expect(row).toHaveTextContent('Expires in 5 hours');
    expect(screen.getByRole('button', { name: 'Approve all 2' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this change?' });
    expect(dialog).toHaveTextContent('This will change the live ad:');
    expect(api.callsTo('POST', `/proposals/${proposal.id}/approve`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve and apply' }));
    expect(await screen.findByText('Approved: the change was sent to Meta')).toBeInTheDocument();
    expect(api.callsTo('POST', `/proposals/${proposal.id}/approve`)).toHaveLength(1);
  });

  it('says the outcome above the list, where no row lies under it, and keeps the history with who decided', async () => {
    const proposal = buildProposal('5', 'Ad set E');
    const decided = {
      ...buildProposal('6', 'Ad set F'),
      status: 'approved' as const,
      decidedAt: '2026-11-20T03:00:00.000Z',
      decidedBy: { id: '00000000-0000-4000-8000-00000000000d', name: 'Nok Owner' },
    };
    const expired = {
      ...buildProposal('7', 'Ad set G'),
      status: 'expired' as const,
      decidedAt: '2026-11-21T03:00:00.000Z',
    };
    const { api, user } = openInboxAs('editor', [proposal], [decided, expired]);
    api.on(`POST /proposals/${proposal.id}/reject`, ok({ ...proposal, status: 'rejected' }));
    const history = await screen.findByRole('region', { name: 'History' });
    const when = (iso: string) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    expect(await within(history).findByText(`Approved by Nok Owner · ${when(decided.decidedAt)}`)).toBeInTheDocument();
    expect(history).toHaveTextContent('“Ad set F”');
    await user.click(within(history).getByRole('button', { name: 'Expired' }));
    expect(await within(history).findByText(`Expired unanswered · ${when(expired.decidedAt)}`)).toBeInTheDocument();
    await user.click(within(history).getByRole('button', { name: 'Rejected' }));
    expect(await within(history).findByText('Nothing rejected yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const said = await screen.findByText('Rejected: nothing was changed');
    // Said in the page's own flow, before the history, not in a toast over the rows.
    expect(said.closest('[role="status"]')).not.toBeNull();
    expect(said.closest('.app-toaster, [class*="toast"]')).toBeNull();
    expect(said.compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says from what to what when the ad changed since the proposal', async () => {
    const proposal = buildProposal('3', 'Ad set C');
    const { api, user } = openInboxAs('editor', [proposal]);
    api.on(
      `POST /proposals/${proposal.id}/approve`,
      fail(409, 'PROPOSAL_STALE', 'The live value changed', undefined, { from: 1000, to: 1500 }),
    );
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await user.click(await screen.findByRole('button', { name: 'Approve and apply' }));
    expect(await screen.findByText(`from ${baht(1000)} to ${baht(1500)}`, { exact: false })).toBeInTheDocument();
  });

  it('shows a viewer the list without a button that decides', async () => {
    openInboxAs('viewer', [buildProposal('4', 'Ad set D')]);
    expect(await screen.findByText(/“Ad set D”/)).toBeInTheDocument();
    expect(await screen.findByRole('note')).toHaveTextContent('only editors approve or reject');
    expect(screen.queryByRole('button', { name: /^(Approve|Reject|Approve all \d+)$/ })).not.toBeInTheDocument();
  });
});
