import type { ReportDelivery, ReportSchedule, Workspace, WorkspaceMember } from '@adpilot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { fail, fakeApi, ok } from '../../../test/fake-api.ts';
import { buildUser, renderApp, storeSession } from '../../../test/render-app.tsx';

const TEAM: Workspace = {
  id: '00000000-0000-4000-8000-00000000000b',
  name: 'Acme Agency',
  role: 'editor',
  personal: false,
};
const SHOP = '2b3a6f4e-5d1c-4c1e-9f0a-1d2e3f4a5b6c';
const CAFE = '3c4b7a5f-6e2d-4d2f-8a1b-2e3f4a5b6c7d';
const ACCOUNTS = [
  { id: SHOP, facebook_account_name: 'Shop TH', currency: 'THB', sync_status: 'idle' },
  { id: CAFE, facebook_account_name: 'Cafe BKK', currency: 'THB', sync_status: 'idle' },
];
const MEMBERS: WorkspaceMember[] = [
  { userId: buildUser().id, name: 'Test Advertiser', email: 'advertiser@example.com', role: 'editor' },
  { userId: '00000000-0000-4000-8000-0000000000c1', name: 'Nok Owner', email: 'Nok@Example.com', role: 'owner' },
];

function buildDelivery(overrides: Partial<ReportDelivery> = {}): ReportDelivery {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    periodStart: '2026-11-09',
    periodEnd: '2026-11-15',
    status: 'sent',
    trigger: 'scheduled',
    recipients: ['advertiser@example.com', 'client@shop.example'],
    outcomes: {},
    attempts: 1,
    errorCode: null,
    at: '2026-11-16T01:00:00.000Z',
    ...overrides,
  };
}

function buildSchedule(overrides: Partial<ReportSchedule> = {}): ReportSchedule {
  return {
    id: '00000000-0000-4000-8000-0000000000e1',
    frequency: 'weekly',
    language: 'th',
    recipients: ['advertiser@example.com', 'client@shop.example'],
    adAccountIds: [SHOP],
    timeZone: 'Asia/Bangkok',
    nextDueAt: '2026-11-30T01:00:00.000Z',
    lastDelivery: buildDelivery(),
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The Reports page of a team workspace the user holds `role` in, with `schedules` listed. */
function openReports(role: Workspace['role'], schedules: ReportSchedule[] = [buildSchedule()]) {
  chooseWorkspace(TEAM.id);
  const server = fakeApi({
    'GET /auth/me': ok(buildUser()),
    'GET /workspaces': ok([{ ...TEAM, role }]),
    'GET /ad-accounts': ok(ACCOUNTS),
    'GET /reports': ok({ from: '2026-11-01', to: '2026-11-26', level: 'account', series: [] }),
    'GET /reports/schedules': ok(schedules),
    [`GET /workspaces/${TEAM.id}/members`]: ok(MEMBERS),
  });
  renderApp('/reports');
  return { server, user: userEvent.setup() };
}

const section = (name = 'Scheduled reports of this workspace') => screen.findByRole('list', { name });

describe('Scheduled reports', () => {
  beforeEach(() => {
    storeSession();
    setLanguageChoice('en');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists each schedule: how often, language, recipients, accounts, next report and the last one', async () => {
    openReports('editor', [
      buildSchedule(),
      buildSchedule({
        id: '00000000-0000-4000-8000-0000000000e2',
        frequency: 'monthly',
        language: 'en',
        recipients: ['boss@example.com'],
        adAccountIds: null,
        lastDelivery: buildDelivery({ status: 'failed', errorCode: 'SERVICE_UNAVAILABLE' }),
      }),
      buildSchedule({ id: '00000000-0000-4000-8000-0000000000e3', adAccountIds: [CAFE, SHOP], lastDelivery: null }),
    ]);
    const items = within(await section()).getAllByRole('article');
    expect(items).toHaveLength(3);
    const [weekly, monthly, fresh] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(weekly).toHaveAccessibleName('Weekly report in Thai');
    expect(within(weekly).getByText('Recipients (2 addresses)').parentElement).toHaveTextContent(
      'advertiser@example.comclient@shop.example',
    );
    expect(within(weekly).getByText('client@shop.example').tagName).toBe('DD');
    expect(weekly).toHaveTextContent('Recipients (2 addresses)');
    expect(weekly).toHaveTextContent('Shop TH');
    // The next report at the schedule's own local time (08:00 in Bangkok), its zone named, as Intl writes it.
    expect(weekly).toHaveTextContent('Nov 30, 2026, 8:00 AM GMT+7');
    expect(weekly).toHaveTextContent(`Sent ${formatDateTime('2026-11-16T01:00:00.000Z', 'en')} for Nov 9 – 15, 2026`);
    expect(monthly).toHaveTextContent('Monthly');
    expect(monthly).toHaveTextContent('All ad accounts');
    expect(monthly).toHaveTextContent('Recipients (1 address)');
    expect(monthly).toHaveTextContent('Failed');
    expect(fresh).toHaveTextContent('Cafe BKK, Shop TH');
    expect(fresh).toHaveTextContent('Not sent yet');
  });

  it('speaks Thai, with Thai dates', async () => {
    setLanguageChoice('th');
    openReports('editor');
    expect(await screen.findByRole('heading', { name: 'รายงานตามกำหนดเวลา' })).toBeInTheDocument();
    const item = within(await section('รายงานตามกำหนดเวลาของเวิร์กสเปซนี้')).getByRole('article', {
      name: 'รายงานรายสัปดาห์ ภาษาไทย',
    });
    expect(item).toHaveTextContent('ผู้รับ (2 อีเมล)');
    expect(item).toHaveTextContent('9–15 พ.ย. 2569');
    expect(within(item).getByRole('button', { name: 'ส่งทันที: รายงานรายสัปดาห์ ภาษาไทย' })).toBeInTheDocument();
  });

  it('says what "Send now" will send before sending it, and sends nothing when cancelled', async () => {
    // Thursday 26 November 2026 in Bangkok: the last full week is 16–22 November.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T05:00:00Z'));
    const { server, user } = openReports('editor');
    await section();
    await user.click(screen.getByRole('button', { name: 'Send now: weekly report in Thai' }));
    let dialog = await screen.findByRole('dialog', { name: 'Send the report now?' });
    expect(dialog).toHaveTextContent('Sends the report for Nov 16 – 22, 2026 to 2 addresses now.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('POST', `/reports/schedules/${buildSchedule().id}/send`)).toHaveLength(0);

    server.on(
      `POST /reports/schedules/${buildSchedule().id}/send`,
      ok(buildDelivery({ periodStart: '2026-11-16', periodEnd: '2026-11-22', trigger: 'manual' })),
    );
    await user.click(screen.getByRole('button', { name: 'Send now: weekly report in Thai' }));
    dialog = await screen.findByRole('dialog', { name: 'Send the report now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('The report for Nov 16 – 22, 2026 was sent to 2 addresses')).toBeInTheDocument();
    expect(server.callsTo('POST', `/reports/schedules/${buildSchedule().id}/send`)).toHaveLength(1);
    // The list is read again for its last delivery.
    await waitFor(() => expect(server.callsTo('GET', '/reports/schedules').length).toBeGreaterThan(1));
  });

  it('says what became of each recipient of "Send now", in words, from what the server answered', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T05:00:00Z'));
    const recipients = [
      'advertiser@example.com',
      'new@client.example',
      'waiting@client.example',
      'gone@client.example',
    ];
    const { server, user } = openReports('editor');
    await section();
    server.on(
      `POST /reports/schedules/${buildSchedule().id}/send`,
      ok(
        buildDelivery({
          periodStart: '2026-11-16',
          periodEnd: '2026-11-22',
          trigger: 'manual',
          recipients: [...recipients, 'late@client.example'],
          outcomes: {
            'advertiser@example.com': 'sent',
            'new@client.example': 'confirmation_sent',
            'waiting@client.example': 'awaiting_confirmation',
            'gone@client.example': 'unsubscribed',
            'late@client.example': 'limited',
          },
        }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Send now: weekly report in Thai' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('The report for Nov 16 – 22, 2026:')).toBeInTheDocument();
    for (const line of [
      'Sent to advertiser@example.com',
      'Asked to confirm first, the report follows once they do: new@client.example',
      'Waiting for confirmation, nothing sent: waiting@client.example',
      'Unsubscribed, nothing sent: gone@client.example',
      "Today's mail limit reached, not sent: late@client.example",
    ])
      expect(screen.getByText(line)).toBeInTheDocument();
    expect(screen.queryByText(/was sent to 5 addresses/)).not.toBeInTheDocument();
  });

  it('explains a refused "Send now" by its code', async () => {
    const { server, user } = openReports('editor');
    server.on(
      `POST /reports/schedules/${buildSchedule().id}/send`,
      fail(429, 'RATE_LIMITED', 'A report can be sent now at most 5 times an hour'),
    );
    await section();
    await user.click(screen.getByRole('button', { name: 'Send now: weekly report in Thai' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send now' }));
    expect(
      await screen.findByText('This report has been sent now 5 times in the last hour. Try again later.'),
    ).toBeInTheDocument();
  });

  it('creates a schedule for ticked members and a typed address, for the chosen accounts', async () => {
    const { server, user } = openReports('editor', []);
    server.on('POST /reports/schedules', (call) => ok(buildSchedule(call.body as Partial<ReportSchedule>), 201));
    expect(await screen.findByText(/No scheduled reports yet\. Create one/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New scheduled report' });
    await user.click(within(dialog).getByRole('radio', { name: /Monthly/ }));
    await user.click(within(dialog).getByRole('radio', { name: 'ไทย' }));
    await user.click(await within(dialog).findByRole('checkbox', { name: /Nok Owner/ }));
    await user.type(within(dialog).getByLabelText('Other addresses'), 'Client@Shop.example{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Remove client@shop.example' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Only the accounts chosen here' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Cafe BKK/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));

    await waitFor(() => expect(server.callsTo('POST', '/reports/schedules')).toHaveLength(1));
    expect(server.callsTo('POST', '/reports/schedules')[0]!.body).toEqual({
      frequency: 'monthly',
      language: 'th',
      recipients: ['nok@example.com', 'client@shop.example'],
      adAccountIds: [CAFE],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(await section()).getAllByRole('article')).toHaveLength(1);
    // The toast names the same moment as the card: 08:00 in the schedule's zone, whatever the browser's zone.
    const when = formatDateTime('2026-11-30T01:00:00.000Z', 'en', { timeZone: 'Asia/Bangkok' });
    expect(when).toContain('8:00 AM');
    expect(await screen.findByText(`Schedule created: the first report goes out ${when}`)).toBeInTheDocument();
  });

  it("checks the form with the contracts' rules before asking the server", async () => {
    const { server, user } = openReports('editor', []);
    await user.click(await screen.findByRole('button', { name: 'New schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New scheduled report' });
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));
    expect(await within(dialog).findByText('Add at least one recipient')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Other addresses'), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Each recipient must be a valid e-mail address')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Other addresses')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(dialog).getByLabelText('Other addresses'));
    await user.type(within(dialog).getByLabelText('Other addresses'), 'client@shop.example');
    await user.click(within(dialog).getByRole('radio', { name: 'Only the accounts chosen here' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));
    expect(
      await within(dialog).findByText('Choose at least one ad account, or send the report for all of them'),
    ).toBeInTheDocument();
    // The address typed without Add was taken in on the way.
    expect(within(dialog).getByRole('button', { name: 'Remove client@shop.example' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/reports/schedules')).toHaveLength(0);
  });

  it("puts the server's field errors under their fields, in the reader's language", async () => {
    setLanguageChoice('th');
    const schedule = buildSchedule();
    const { server, user } = openReports('editor', [schedule]);
    server.on(
      `PATCH /reports/schedules/${schedule.id}`,
      fail(400, 'VALIDATION_ERROR', 'Validation failed', [{ field: 'adAccountIds.0', message: 'Unknown ad account' }]),
    );
    await section('รายงานตามกำหนดเวลาของเวิร์กสเปซนี้');
    await user.click(screen.getByRole('button', { name: 'แก้ไข: รายงานรายสัปดาห์ ภาษาไทย' }));
    const dialog = await screen.findByRole('dialog', { name: 'แก้ไขรายงานตามกำหนดเวลา' });
    // The schedule's recipients: the member ticked, the outside address as a chip.
    expect(await within(dialog).findByRole('checkbox', { name: /Test Advertiser/ })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'นำ client@shop.example ออก' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'บันทึกการเปลี่ยนแปลง' }));
    expect(await within(dialog).findByText('บัญชีโฆษณาที่เลือกบางบัญชีไม่อยู่ในเวิร์กสเปซนี้แล้ว โปรดเลือกใหม่')).toBeInTheDocument();
    expect(server.callsTo('PATCH', `/reports/schedules/${schedule.id}`)[0]!.body).toEqual({
      frequency: 'weekly',
      language: 'th',
      recipients: ['advertiser@example.com', 'client@shop.example'],
      adAccountIds: [SHOP],
    });
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a refusal that names no field above the buttons', async () => {
    const { server, user } = openReports('editor', []);
    server.on('POST /reports/schedules', fail(409, 'CONFLICT', 'A workspace keeps at most 10 report schedules'));
    await user.click(await screen.findByRole('button', { name: 'New schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New scheduled report' });
    await user.type(within(dialog).getByLabelText('Other addresses'), 'client@shop.example');
    await user.click(within(dialog).getByRole('button', { name: 'Create schedule' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This conflicts with existing data');
  });

  it('asks before deleting a schedule', async () => {
    const schedule = buildSchedule();
    const { server, user } = openReports('editor', [schedule]);
    server.on(`DELETE /reports/schedules/${schedule.id}`, { status: 204, body: null });
    await section();
    await user.click(screen.getByRole('button', { name: 'Delete: weekly report in Thai' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this schedule?' });
    expect(dialog).toHaveTextContent('The weekly report in Thai stops');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.callsTo('DELETE', `/reports/schedules/${schedule.id}`)).toHaveLength(1));
    expect(await screen.findByText(/No scheduled reports yet/)).toBeInTheDocument();
  });

  it('opens the PDF preview in a new tab, asked for with the session, for a viewer too', async () => {
    const schedule = buildSchedule();
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() }));
    const { server, user } = openReports('viewer', [schedule]);
    const path = `/reports/schedules/${schedule.id}/preview`;
    server.on(`GET ${path}`, { status: 200, body: '%PDF-1.7' });
    await section();
    await user.click(screen.getByRole('button', { name: 'Preview: weekly report in Thai' }));
    await waitFor(() => expect(tab.location.href).toBe('blob:report'));
    // The tab is opened at the click, before the file is asked for, so no pop-up blocker stops it.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(server.callsTo('GET', path)[0]!.headers.authorization).toBe('Bearer access-token');

    server.on(`GET ${path}`, fail(500, 'INTERNAL_ERROR'));
    await user.click(screen.getByRole('button', { name: 'Preview: weekly report in Thai' }));
    expect(await screen.findByText('The preview could not be opened. Please try again.')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    open.mockRestore();
  });

  it('shows a viewer the schedules without a button that changes them, and says why', async () => {
    const { server } = openReports('viewer');
    const item = within(await section()).getByRole('article');
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Viewers can look but not change anything in this workspace.',
    );
    expect(screen.queryByRole('button', { name: 'New schedule' })).not.toBeInTheDocument();
    expect(
      within(item!)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Preview']);
    expect(server.callsTo('GET', `/workspaces/${TEAM.id}/members`)).toHaveLength(0);
  });
});
