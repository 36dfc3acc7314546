import type { RuleHold } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fail, fakeApi, ok } from '../test/fake-api.ts';
import { renderRulesRoute } from '../test/render-page.tsx';
import { RuleDetailPage } from './rule-detail-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000c';
const hold: RuleHold = {
  actionId: '00000000-0000-4000-8000-0000000000a1',
  entity: {
    adAccountId: '00000000-0000-4000-8000-0000000000b1',
    level: 'adset',
    externalId: '120',
    name: 'Night owls',
  },
  resumeAt: '2026-11-26T17:00:00.000Z',
  status: 'scheduled',
  settledAt: null,
};

function open(role: 'viewer' | 'editor', language: 'en' | 'th' = 'en') {
  chooseWorkspace(TEAM);
  setLanguageChoice(language);
  const rule = buildRule({ name: 'Night pause', actions: [{ type: 'pause', resumeAfter: { atLocalTime: '00:00' } }] });
  const fake = fakeApi({
    [`GET /rules/${rule.id}`]: ok(rule),
    [`GET /rules/${rule.id}/runs`]: ok([]),
    [`GET /rules/${rule.id}/holds`]: ok([hold]),
    'GET /workspaces': ok([{ id: TEAM, name: 'Acme Agency', role, personal: false }]),
  });
  const rendered = renderRulesRoute(`/rules/${rule.id}`, '/rules/:id', <RuleDetailPage />);
  return { ...rendered, fake, rule };
}

describe('timed holds on the rule page', () => {
  it('lists each hold with its time, and resumes one now only after asking', async () => {
    const { user, fake, rule } = open('editor');
    const section = (await screen.findByRole('heading', { name: 'Timed holds' })).closest('section') ?? document.body;
    expect(await within(section as HTMLElement).findByText('Night owls')).toBeInTheDocument();
    expect(section).toHaveTextContent('Scheduled');
    expect(screen.getByText('pause, resume at 00:00')).toBeInTheDocument();
    const resumed = { ...hold, status: 'resumed' as const, settledAt: '2026-11-26T08:00:00.000Z' };
    fake.on(`POST /rules/holds/${hold.actionId}/resume`, () => {
      fake.on(`GET /rules/${rule.id}/holds`, ok([resumed]));
      return ok({ hold: resumed });
    });
    await user.click(screen.getByRole('button', { name: 'Resume Night owls now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resume this now?' });
    expect(dialog).toHaveTextContent('Ad set Night owls will be switched back on at Meta now');
    await user.click(within(dialog).getByRole('button', { name: 'Resume now' }));
    await waitFor(() => expect(section).toHaveTextContent('Resumed'));
    expect(fake.callsTo('POST', `/rules/holds/${hold.actionId}/resume`)).toHaveLength(1);
  });

  it('says why a resume now was refused', async () => {
    const { user, fake } = open('editor', 'th');
    fake.on(`POST /rules/holds/${hold.actionId}/resume`, fail(409, 'HOLD_NOT_SCHEDULED', 'not scheduled'));
    await user.click(await screen.findByRole('button', { name: 'เปิดใช้งาน Night owls ต่อทันที' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'เปิดใช้งานต่อทันที' }));
    expect(await screen.findByText(/ไม่ได้ตั้งเวลาไว้แล้ว/)).toBeInTheDocument();
  });

  it('shows a viewer the holds without Resume now', async () => {
    open('viewer');
    expect(await screen.findByText('Night owls')).toBeInTheDocument();
    expect(await screen.findByRole('note')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Resume/ })).not.toBeInTheDocument();
  });
});
