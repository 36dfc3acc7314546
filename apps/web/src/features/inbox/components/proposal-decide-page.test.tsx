import type { Proposal, ProposalLink } from '@adpilot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { fail, fakeApi, ok } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const TOKEN = 'eyJwIjoiMSJ9.c2lnbmF0dXJl';
const PAGE = `/proposals/decide?token=${TOKEN}`;
const LINK_PATH = `/proposal-links/${TOKEN}`;
/** As the page shows it, with the no-break space the matchers see as a space. */
const baht = (value: number) => formatMoney(value, 'THB', 'en').replace(/\s/g, ' ');

function buildProposal(overrides: Partial<Proposal> = {}): Proposal {
  const entity = {
    adAccountId: '00000000-0000-4000-8000-0000000000c1',
    level: 'adset' as const,
    externalId: '1',
    name: 'Ad set A',
  };
  return {
    id: '00000000-0000-4000-8000-000000000001',
    ruleId: '00000000-0000-4000-8000-0000000000d1',
    ruleName: 'Scale winners',
    runId: '00000000-0000-4000-8000-0000000000a1',
    actor: { type: 'rule', id: '00000000-0000-4000-8000-0000000000d1', name: null },
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

function openLink(link: ProposalLink) {
  setLanguageChoice('en');
  const api = fakeApi({ [`GET ${LINK_PATH}`]: ok(link) });
  renderApp(PAGE);
  return { api, user: userEvent.setup() };
}

describe('the proposal link page', () => {
  it('shows the change the link would approve, without deciding anything', async () => {
    const { api } = openLink({ decision: 'approve', proposal: buildProposal() });
    expect(await screen.findByRole('heading', { name: 'Approve a proposed change' })).toBeInTheDocument();
    expect(
      screen.getByText(`Raise the budget of ad set “Ad set A”: ${baht(1000)} → ${baht(1200)}`),
    ).toBeInTheDocument();
    expect(screen.getByText('Scale winners')).toBeInTheDocument();
    expect(screen.getByText('Expires in 5 hours')).toBeInTheDocument();
    expect(screen.getByText('This changes the live ad at Meta now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve this change' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject this proposal' })).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
    expect(api.callsTo('GET', LINK_PATH)[0]?.headers.authorization).toBeUndefined();
  });

  it('approves once and says the change was written', async () => {
    const proposal = buildProposal();
    const { api, user } = openLink({ decision: 'approve', proposal });
    api.on(`POST ${LINK_PATH}`, ok({ decision: 'approve', proposal: { ...proposal, status: 'approved' } }));
    await user.click(await screen.findByRole('button', { name: 'Approve this change' }));
    expect(await screen.findByText('Approved: the change was written')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: 'Approve this change' })).not.toBeInTheDocument();
    expect(api.callsTo('POST', LINK_PATH)).toHaveLength(1);
    expect(api.callsTo('POST', LINK_PATH)[0]?.body).toEqual({});
  });

  it('shows a refused decision in the reader’s words, with the live values in the account currency', async () => {
    const proposal = buildProposal();
    const { api, user } = openLink({ decision: 'approve', proposal });
    api.on(`POST ${LINK_PATH}`, fail(409, 'PROPOSAL_STALE', 'Stale', undefined, { from: 900, to: 1200 }));
    await user.click(await screen.findByRole('button', { name: 'Approve this change' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `The ad changed since this proposal was made (from ${baht(900)} to ${baht(1200)}), so nothing was changed.`,
    );
    expect(screen.queryByRole('button', { name: 'Approve this change' })).not.toBeInTheDocument();
  });

  it('shows a proposal already decided with its status and no button', async () => {
    const { api } = openLink({ decision: 'reject', proposal: buildProposal({ status: 'approved' }) });
    expect(await screen.findByText('This proposal was already approved.')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: 'Reject this proposal' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Expires/)).not.toBeInTheDocument();
    expect(api.callsTo('POST', LINK_PATH)).toHaveLength(0);
  });

  it('offers a reject link’s one button, in Thai', async () => {
    const { api } = openLink({ decision: 'reject', proposal: buildProposal() });
    setLanguageChoice('th');
    expect(await screen.findByRole('button', { name: 'ปฏิเสธข้อเสนอนี้' })).toBeInTheDocument();
    expect(screen.getByText('โฆษณาจะไม่เปลี่ยนแปลง และข้อเสนอนี้จะถูกปิด')).toBeInTheDocument();
    expect(api.callsTo('POST', LINK_PATH)).toHaveLength(0);
  });

  it('says an invalid, refused or missing link is not valid', async () => {
    setLanguageChoice('en');
    const api = fakeApi({ [`GET ${LINK_PATH}`]: fail(404, 'NOT_FOUND', 'Not found') });
    const { unmount } = renderApp(PAGE);
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid or has expired.');
    unmount();

    api.on(`GET ${LINK_PATH}`, fail(403, 'FORBIDDEN', 'Forbidden'));
    const second = renderApp(PAGE);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You can no longer decide on this proposal in its workspace.',
    );
    second.unmount();

    renderApp('/proposals/decide');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid or has expired.');
    expect(api.callsTo('GET', LINK_PATH)).toHaveLength(2);
  });
});
