import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { buildAdAccount, fakeApi, ok } from '../test/fake-api.ts';
import { renderAdAccountsPage } from '../test/render-page.tsx';

afterEach(async () => {
  toast.remove();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('the account card’s history (ADR 0103)', () => {
  it('shows the backfill’s progress, and an editor’s longer setting is sent and shown', async () => {
    const account = buildAdAccount({
      facebook_account_name: 'Long history',
      backfill_days: 200,
      history: { from: '2025-01-01', days: 150, target_days: 200, complete: false },
    });
    const api = fakeApi({ 'GET /ad-accounts': ok([account]) });
    const { user } = renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'Long history' });
    expect(within(card).getByText('Fetching: 150 of 200 days')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'History fetched' })).toHaveAttribute('aria-valuenow', '150');

    const setting = within(card).getByRole('combobox', { name: 'Keep history for' });
    expect(setting).toHaveValue('200');
    api.on(
      `PATCH /ad-accounts/${account.id}`,
      ok({
        ...account,
        backfill_days: 1125,
        history: { from: '2022-11-01', days: 1125, target_days: 1125, complete: true },
      }),
    );
    await user.selectOptions(setting, '1125');
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/ad-accounts/${account.id}`)[0]?.body).toEqual({ backfill_days: 1125 }),
    );
    expect(await within(card).findByText(/^Complete, from/)).toBeInTheDocument();
    expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(card).getByRole('option', { name: "1,125 days (Meta's 37 months)" })).toBeInTheDocument();
  });

  it('speaks Thai', async () => {
    await i18n.changeLanguage('th');
    fakeApi({
      'GET /ad-accounts': ok([
        buildAdAccount({
          facebook_account_name: 'ไทย',
          history: { from: '2025-01-01', days: 40, target_days: 90, complete: false },
        }),
      ]),
    });
    renderAdAccountsPage();
    const card = await screen.findByRole('article', { name: 'ไทย' });
    expect(within(card).getByText('กำลังดึงข้อมูล: 40 จาก 90 วัน')).toBeInTheDocument();
    expect(within(card).getByRole('combobox', { name: 'เก็บประวัติย้อนหลัง' })).toHaveValue('90');
  });
});
