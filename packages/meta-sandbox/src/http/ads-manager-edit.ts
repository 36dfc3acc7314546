import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphError } from '../graph/graph-error.ts';
import { validateUpdate } from '../graph/handlers/update.ts';
import { mergeParams, type Params } from '../graph/params.ts';
import type { GraphRuntime } from '../graph/runtime.ts';
import { hashString } from '../world/random.ts';
import { currencyOffset } from '../world/seed.ts';
import type { MutationActor, SandboxAccount, SandboxEntity } from '../world/types.ts';
import { budgetAt, statusAt } from '../world/world.ts';
import { refuse, type AdsManagerPerson } from './ads-manager-access.ts';
import { escapeHtml, page } from './consent-page.ts';
import type { SandboxHost } from './plugin.ts';

/** The app a change made on Ads Manager is recorded through, as the activity history names it. */
export const ADS_MANAGER_APP = { id: 'sandbox-ads-manager', name: 'Ads Manager' } as const;

/** The page's own rules: one inline stylesheet path, no script, forms posting only to this origin, never framed. */
const EDIT_CSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface EditForm {
  status: string;
  dailyBudget: string;
}

interface Editable {
  account: SandboxAccount;
  target: SandboxEntity;
}

interface EditableIn extends Editable {
  /** The account's world, where the page reads and writes. */
  rt: GraphRuntime;
}

function findEditable(host: SandboxHost, act: string, id: string): EditableIn | undefined {
  const rt = act ? host.worldOfAccount(act) : undefined;
  const account = rt?.world.account(act);
  const target = id ? rt?.world.findEntity(id) : undefined;
  if (!rt || !account || !target || target.entity.accountId !== account.id) return undefined;
  return { rt, account, target };
}

/** The daily budget in major units as the form shows it; empty where the object holds no daily budget. */
function dailyBudgetText(rt: GraphRuntime, { account, target }: Editable): string {
  if (target.kind === 'ad') return '';
  const daily = budgetAt(target.entity.budgetLog, rt.now())?.dailyBudget;
  if (daily === undefined) return '';
  const offset = currencyOffset(account.currency);
  return (daily / offset).toFixed(offset === 1 ? 0 : 2);
}

export function renderEditPage(
  rt: GraphRuntime,
  cssPath: string,
  actionPath: string,
  editable: Editable,
  person: AdsManagerPerson,
  form: EditForm,
  error?: string,
): string {
  const { account, target } = editable;
  const budgetField =
    dailyBudgetText(rt, editable) === ''
      ? '<p class="notice">This object has no daily budget of its own.</p>'
      : `<label for="daily_budget">Daily budget (${escapeHtml(account.currency)})</label>
<input id="daily_budget" name="daily_budget" inputmode="decimal" value="${escapeHtml(form.dailyBudget)}">`;
  const options = ['ACTIVE', 'PAUSED']
    .map((status) => `<option value="${status}"${form.status === status ? ' selected' : ''}>${status}</option>`)
    .join('');
  return page(
    cssPath,
    `<h1>Edit ${escapeHtml(target.entity.name)}</h1>
<p class="notice">Sandbox Ads Manager: a change made here is recorded in the account's activity history as
${escapeHtml(person.name)}'s change through Ads Manager, the way a colleague's edit on Facebook is.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(actionPath)}">
<input type="hidden" name="act" value="${escapeHtml(account.id)}">
<input type="hidden" name="id" value="${escapeHtml(target.entity.id)}">
<label for="status">Status</label>
<select id="status" name="status">${options}</select>
${budgetField}
<div class="actions">
<a class="secondary" href="${escapeHtml(actionPath.replace(/\/edit$/, ''))}?act=${escapeHtml(account.id)}">Cancel</a>
<button type="submit" class="primary">Save</button>
</div>
</form>`,
  );
}

/**
 * A browser says where a form came from; a post from another site is refused (there is no session to ride).
 * `Sec-Fetch-Site` first: under a no-referrer policy a browser sends `Origin: null` even from the page itself.
 */
function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  return origin !== undefined && origin !== `${request.protocol}://${request.host}`;
}

/** Major units as typed (500 or 500.25) into the currency's minor units, or an error to show. */
function readBudget(raw: string, currency: string): string | { error: string } {
  const offset = currencyOffset(currency);
  const decimals = offset === 1 ? 0 : 2;
  const pattern = decimals === 0 ? /^\d{1,10}$/ : /^\d{1,10}(\.\d{1,2})?$/;
  if (!pattern.test(raw)) {
    return { error: `Enter the daily budget as a number${decimals ? ' with at most 2 decimals' : ''}.` };
  }
  return String(Math.round(Number(raw) * offset));
}

export function registerAdsManagerEdit(app: FastifyInstance, host: SandboxHost, cssPath: string): void {
  const actionPath = `${app.prefix}/adsmanager/edit`;
  const send = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', EDIT_CSP)
      .send(html);
  const notFound = (reply: FastifyReply) =>
    send(reply, 404, page(cssPath, '<h1>Not found</h1><p class="error">No sandbox object has this id.</p>'));

  app.get('/adsmanager/edit', async (request, reply) => {
    const query = mergeParams(request.query);
    const person = await host.adsManager.admit(request, query.act ?? '');
    if (!person) return refuse(reply, cssPath);
    const editable = findEditable(host, query.act ?? '', query.id ?? '');
    if (!editable) return notFound(reply);
    const { rt } = editable;
    const status = statusAt(editable.target.entity.statusLog, rt.now()) ?? 'PAUSED';
    const form = { status, dailyBudget: dailyBudgetText(rt, editable) };
    return send(reply, 200, renderEditPage(rt, cssPath, actionPath, editable, person, form));
  });

  app.post('/adsmanager/edit', async (request, reply) => {
    if (isCrossSite(request)) {
      return send(
        reply,
        403,
        page(cssPath, '<h1>Refused</h1><p class="error">This form only accepts its own page.</p>'),
      );
    }
    const body: Params = mergeParams(request.body);
    // Asked again at the change itself: a holder removed since the page opened changes nothing.
    const person = await host.adsManager.admit(request, body.act ?? '');
    if (!person) return refuse(reply, cssPath);
    const editable = findEditable(host, body.act ?? '', body.id ?? '');
    if (!editable) return notFound(reply);
    const { rt } = editable;
    const form = { status: body.status ?? '', dailyBudget: (body.daily_budget ?? '').trim() };
    const fail = (message: string) =>
      send(reply, 400, renderEditPage(rt, cssPath, actionPath, editable, person, form, message));
    const params: Params = {};
    const now = rt.now();
    if (form.status !== statusAt(editable.target.entity.statusLog, now)) params.status = form.status;
    if (form.dailyBudget !== '' && form.dailyBudget !== dailyBudgetText(rt, editable)) {
      const minor = readBudget(form.dailyBudget, editable.account.currency);
      if (typeof minor !== 'string') return fail(minor.error);
      params.daily_budget = minor;
    }
    const back = `${app.prefix}/adsmanager?act=${encodeURIComponent(editable.account.id)}`;
    if (Object.keys(params).length === 0) return reply.redirect(back, 303);
    // The actor is the link's person as the host names them, never text the page was sent.
    const by: MutationActor = {
      actorId: `sandbox-person-${hashString(person.id).toString(36)}`,
      actorName: person.name,
      applicationId: ADS_MANAGER_APP.id,
      applicationName: ADS_MANAGER_APP.name,
    };
    try {
      rt.recordMutation(validateUpdate(rt, editable.target, params, by));
    } catch (error) {
      if (error instanceof GraphError) return fail(error.userMessage ?? error.message);
      throw error;
    }
    return reply.redirect(back, 303);
  });
}
