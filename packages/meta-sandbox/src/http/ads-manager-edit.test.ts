import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../test/fixtures.ts';
import type { SandboxAccount, SandboxAdSet } from '../world/types.ts';
import {
  ADS_MANAGER_LINK_SECONDS,
  adsManagerCookie,
  SANDBOX_PERSON,
  type AdsManagerPerson,
} from './ads-manager-access.ts';
import { budgetAt, statusAt } from '../world/world.ts';

let fixture: Fixture;
let account: SandboxAccount;
let adSet: SandboxAdSet;
/** The browser's grant to `account`, as the signed "View in Facebook" link gives it. */
let cookie: string;
const linkTo = (act: string) => fixture.sandbox.adsManager.link(`${fixture.url}/adsmanager`, act);

beforeAll(async () => {
  fixture = await startFixture();
  account = fixture.sandbox.world.account(fixture.sandbox.personas[0]?.accountIds[0] ?? '') as SandboxAccount;
  const now = fixture.clock.now();
  adSet = fixture.sandbox.world
    .accountAdSets(account)
    .find(
      (candidate) =>
        !fixture.sandbox.world.campaignOf(candidate).isCbo &&
        statusAt(candidate.statusLog, now) === 'ACTIVE' &&
        budgetAt(candidate.budgetLog, now)?.dailyBudget !== undefined,
    ) as SandboxAdSet;
  cookie = await adsManagerCookie(linkTo(account.id));
});
afterAll(() => fixture.close());

const editUrl = () => `${fixture.url}/adsmanager/edit`;
const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(editUrl(), {
    method: 'POST',
    body: new URLSearchParams({ act: account.id, id: adSet.id, ...fields }),
    headers: { cookie, ...headers },
    redirect: 'manual',
  });
const dailyBudget = () => budgetAt(adSet.budgetLog, fixture.clock.now())?.dailyBudget;

describe('the sandbox Ads Manager edit form', () => {
  it('links every editable object to a plain form with its current values', async () => {
    const list = await (await fetch(`${fixture.url}/adsmanager?act=${account.id}`, { headers: { cookie } })).text();
    expect(list).toContain(`/adsmanager/edit?act=${account.id}&#38;id=${adSet.id}`);
    const response = await fetch(`${editUrl()}?act=${account.id}&id=${adSet.id}`, { headers: { cookie } });
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'");
    const html = await response.text();
    expect(html).not.toContain('<script');
    expect(html).toContain('name="daily_budget"');
    expect(html).toContain(`value="${((dailyBudget() ?? 0) / 100).toFixed(2)}"`);
    expect(html).toContain('<option value="ACTIVE" selected>');
  });

  it('has no field for a name: a change is recorded as whom the link names, here the sandbox user', async () => {
    const form = await (await fetch(`${editUrl()}?act=${account.id}&id=${adSet.id}`, { headers: { cookie } })).text();
    expect(form).not.toContain('name="name"');
    const before = dailyBudget() ?? 0;
    // A name sent anyway is not read: it spoofed the actor of the activity history.
    const answer = await post({
      name: 'Alice Owner',
      status: 'ACTIVE',
      daily_budget: ((before + 5000) / 100).toFixed(2),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/adsmanager?act=${account.id}`);
    expect(dailyBudget()).toBe(before + 5000);
    const last = fixture.sandbox.mutations.at(-1);
    expect(last?.by).toMatchObject({ actorName: SANDBOX_PERSON.name, applicationName: 'Ads Manager' });
    const activities = await fixture.client().listActivities(fixture.token, account.id, {
      since: new Date(fixture.clock.now() - 60_000),
    });
    expect(activities[0]).toMatchObject({ event_type: 'update_ad_set_budget', actor_name: SANDBOX_PERSON.name });
    expect(JSON.stringify(activities)).not.toContain('Alice Owner');
  });

  it('changes status alone', async () => {
    fixture.clock.advance(60_000);
    expect((await post({ status: 'PAUSED' })).status).toBe(303);
    expect(statusAt(adSet.statusLog, fixture.clock.now())).toBe('PAUSED');
    expect(fixture.sandbox.mutations.at(-1)).toMatchObject({ by: { actorName: 'Sandbox user' }, status: 'PAUSED' });
    expect(fixture.sandbox.mutations.at(-1)?.dailyBudget).toBeUndefined();
  });

  it('refuses bad input with the form again, every value escaped', async () => {
    const count = fixture.sandbox.mutations.length;
    const hostile = '<script>alert("x")</script>';
    const badBudget = await post({ status: 'PAUSED', daily_budget: `1<b>2${hostile}` });
    expect(badBudget.status).toBe(400);
    const html = await badBudget.text();
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>2');
    expect(html).toContain('&#60;script&#62;');
    expect(html).toContain('Enter the daily budget as a number');
    const tooLow = await post({ status: 'PAUSED', daily_budget: '0.01' });
    expect(tooLow.status).toBe(400);
    expect(await tooLow.text()).toContain('The minimum budget is');
    const badStatus = await post({ status: 'DELETED' });
    expect(badStatus.status).toBe(400);
    expect(fixture.sandbox.mutations.length).toBe(count);
  });

  it('accepts its own origin only and answers 404 for an object of another account', async () => {
    const count = fixture.sandbox.mutations.length;
    const crossSite = await post({ status: 'ACTIVE' }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await post({ status: 'ACTIVE' }, { origin: 'https://evil.example' });
    expect(otherOrigin.status).toBe(403);
    const sameOrigin = await post({ status: 'ACTIVE' }, { origin: new URL(fixture.url).origin });
    expect(sameOrigin.status).toBe(303);
    // A browser under a no-referrer policy posts its own page's form with Origin: null and says same-origin.
    const ownPage = await post({ status: 'PAUSED' }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(ownPage.status).toBe(303);
    expect(fixture.sandbox.mutations.length).toBe(count + 2);
    const other = fixture.sandbox.personas[1]?.accountIds[0] ?? '';
    const otherCookie = await adsManagerCookie(linkTo(other));
    const wrong = await fetch(editUrl(), {
      method: 'POST',
      body: new URLSearchParams({ act: other, id: adSet.id, status: 'PAUSED' }),
      headers: { cookie: `${cookie}; ${otherCookie}` },
    });
    expect(wrong.status).toBe(404);
  });
});

describe('who may open the sandbox Ads Manager', () => {
  const page = (act: string, headers: Record<string, string> = {}) =>
    fetch(`${fixture.url}/adsmanager?act=${act}`, { headers, redirect: 'manual' });

  it('opens through the signed link only: the link sets a cookie for that account and leaves the address bar', async () => {
    const response = await fetch(linkTo(account.id), { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/adsmanager?act=${account.id}`);
    const set = response.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Path=\/adsmanager/);
    expect((await page(account.id, { cookie })).status).toBe(200);
  });

  it('refuses a guessed account id, a forged or altered link, and a cookie for another account', async () => {
    const other = fixture.sandbox.personas[1]?.accountIds[0] ?? '';
    expect((await page(account.id)).status).toBe(403);
    expect(await (await page(account.id)).text()).toContain('Open this page from AdPilot');
    expect((await page(other, { cookie })).status).toBe(403);
    const forged = new URL(linkTo(other));
    forged.searchParams.set('sig', 'A'.repeat(43));
    expect((await fetch(forged, { redirect: 'manual' })).status).toBe(403);
    const swapped = new URL(linkTo(account.id));
    swapped.searchParams.set('act', other);
    expect((await fetch(swapped, { redirect: 'manual' })).status).toBe(403);
    const count = fixture.sandbox.mutations.length;
    const noCookie = await fetch(editUrl(), {
      method: 'POST',
      body: new URLSearchParams({ act: account.id, id: adSet.id, status: 'PAUSED' }),
      redirect: 'manual',
    });
    expect(noCookie.status).toBe(403);
    expect((await fetch(`${editUrl()}?act=${account.id}&id=${adSet.id}`)).status).toBe(403);
    expect(fixture.sandbox.mutations.length).toBe(count);
  });

  it('stops opening once the link and its cookie have expired', async () => {
    const link = linkTo(account.id);
    const granted = await adsManagerCookie(link);
    fixture.clock.advance(ADS_MANAGER_LINK_SECONDS * 1000 - 60_000);
    expect((await page(account.id, { cookie: granted })).status).toBe(200);
    fixture.clock.advance(60_000);
    expect((await page(account.id, { cookie: granted })).status).toBe(403);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);
    cookie = await adsManagerCookie(linkTo(account.id));
  });
});

describe('a link that names its holder, asked at every use', () => {
  let held: Fixture;
  let act: string;
  let campaignId: string;
  /** Who may edit now, as the host answers: holder id → person. */
  const editors = new Map<string, AdsManagerPerson>();
  const asked: string[] = [];
  const holderLink = (holder: string, account = act) =>
    held.sandbox.adsManager.link(`${held.url}/adsmanager`, account, holder);
  const pause = (cookie: string, fields: Record<string, string> = {}) =>
    fetch(`${held.url}/adsmanager/edit`, {
      method: 'POST',
      body: new URLSearchParams({ act, id: campaignId, status: 'PAUSED', ...fields }),
      headers: { cookie },
      redirect: 'manual',
    });
  const resume = (cookie: string) =>
    fetch(`${held.url}/adsmanager/edit`, {
      method: 'POST',
      body: new URLSearchParams({ act, id: campaignId, status: 'ACTIVE' }),
      headers: { cookie },
      redirect: 'manual',
    });

  beforeAll(async () => {
    held = await startFixture();
    act = held.sandbox.personas[0]?.accountIds[0] ?? '';
    const account = held.sandbox.world.account(act) as SandboxAccount;
    campaignId = held.sandbox.world
      .campaignsOf(account)
      .find((c) => statusAt(c.statusLog, held.clock.now()) === 'ACTIVE')!.id;
    held.sandbox.adsManager.checkHoldersWith(async (holder, forAct) => {
      asked.push(`${holder}@${forAct}`);
      return editors.get(holder);
    });
  });
  afterAll(() => held.close());

  it("records a change as the holder's person, whatever name the form carries", async () => {
    editors.set('ws-1.user-nok', { id: 'user-nok', name: 'Nok Editor' });
    const cookie = await adsManagerCookie(holderLink('ws-1.user-nok'));
    const page = await (
      await fetch(`${held.url}/adsmanager/edit?act=${act}&id=${campaignId}`, { headers: { cookie } })
    ).text();
    expect(page).toContain('Nok Editor');
    expect((await pause(cookie, { name: 'Alice Owner' })).status).toBe(303);
    expect(held.sandbox.mutations.at(-1)?.by).toMatchObject({
      actorName: 'Nok Editor',
      applicationName: 'Ads Manager',
    });
    expect(asked).toContain(`ws-1.user-nok@${act}`);
  });

  it('stops at once when the host no longer lets the holder edit: the page, the form and the link', async () => {
    editors.set('ws-1.user-ex', { id: 'user-ex', name: 'Ex Member' });
    const link = holderLink('ws-1.user-ex');
    const cookie = await adsManagerCookie(link);
    expect((await fetch(`${held.url}/adsmanager?act=${act}`, { headers: { cookie } })).status).toBe(200);
    editors.delete('ws-1.user-ex');
    const count = held.sandbox.mutations.length;
    expect((await fetch(`${held.url}/adsmanager?act=${act}`, { headers: { cookie } })).status).toBe(403);
    expect(
      (await fetch(`${held.url}/adsmanager/edit?act=${act}&id=${campaignId}`, { headers: { cookie } })).status,
    ).toBe(403);
    expect((await resume(cookie)).status).toBe(403);
    const followed = await fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(403);
    expect(followed.headers.get('set-cookie')).toBeNull();
    expect(held.sandbox.mutations.length).toBe(count);
  });

  it('refuses a link naming nobody, or another holder than it was signed for', async () => {
    editors.set('ws-1.user-nok', { id: 'user-nok', name: 'Nok Editor' });
    const anonymous = held.sandbox.adsManager.link(`${held.url}/adsmanager`, act);
    expect((await fetch(anonymous, { redirect: 'manual' })).status).toBe(403);
    const swapped = new URL(holderLink('ws-1.user-ex'));
    swapped.searchParams.set('holder', 'ws-1.user-nok');
    expect((await fetch(swapped, { redirect: 'manual' })).status).toBe(403);
    const dropped = new URL(holderLink('ws-1.user-nok'));
    dropped.searchParams.delete('holder');
    expect((await fetch(dropped, { redirect: 'manual' })).status).toBe(403);
  });
});
