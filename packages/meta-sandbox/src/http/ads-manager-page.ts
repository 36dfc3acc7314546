import type { FastifyInstance } from 'fastify';
import { mergeParams } from '../graph/params.ts';
import { describeAmount } from '../graph/objects.ts';
import type { GraphRuntime } from '../graph/runtime.ts';
import { budgetAt, statusAt } from '../world/world.ts';
import type { BudgetChange, SandboxAccount, SandboxEntity } from '../world/types.ts';
import { refuse } from './ads-manager-access.ts';
import { registerAdsManagerEdit } from './ads-manager-edit.ts';
import type { SandboxHost } from './plugin.ts';
import { escapeHtml, page } from './consent-page.ts';

function budgetText(budget: BudgetChange | undefined, account: SandboxAccount): string {
  if (budget?.dailyBudget !== undefined) return `${describeAmount(budget.dailyBudget, account.currency)} / day`;
  if (budget?.lifetimeBudget !== undefined)
    return `${describeAmount(budget.lifetimeBudget, account.currency)} lifetime`;
  return '—';
}

const EDITABLE = new Set(['ACTIVE', 'PAUSED']);

function entityRow(
  rt: GraphRuntime,
  target: SandboxEntity,
  account: SandboxAccount,
  now: number,
  editPath: string,
): string {
  const depth = { campaign: 0, adset: 1, ad: 2 }[target.kind];
  const budget = target.kind === 'ad' ? '—' : budgetText(budgetAt(target.entity.budgetLog, now), account);
  const href = `${editPath}?act=${encodeURIComponent(account.id)}&id=${encodeURIComponent(target.entity.id)}`;
  const edit = EDITABLE.has(statusAt(target.entity.statusLog, now) ?? '')
    ? `<a href="${escapeHtml(href)}">Edit</a>`
    : '';
  return `<tr class="depth-${depth}"><td>${escapeHtml(target.entity.name)}</td><td>${target.kind}</td><td>${escapeHtml(
    rt.world.effectiveStatus(target, now),
  )}</td><td>${escapeHtml(budget)}</td><td><code>${escapeHtml(target.entity.id)}</code></td><td>${edit}</td></tr>`;
}

/**
 * What "View in Facebook" opens in sandbox mode: one account's campaigns, ad sets and ads, each with an Edit page
 * where a person changes its status or daily budget as a colleague would on Facebook (ads-manager-edit.ts).
 */
export function registerAdsManagerPage(app: FastifyInstance, rt: SandboxHost, cssPath: string): void {
  const editPath = `${app.prefix}/adsmanager/edit`;
  registerAdsManagerEdit(app, rt, cssPath);
  const pagePath = `${app.prefix}/adsmanager`;
  app.get('/adsmanager', async (request, reply) => {
    const query = mergeParams(request.query);
    const act = query.act ?? '';
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (query.sig !== undefined || query.expires !== undefined) {
      const grant = rt.adsManager.check(act, query.expires, query.sig, query.holder);
      // The holder is asked at once: a link of someone who may no longer edit sets nothing.
      if (!grant || !(await rt.adsManager.personOf(act, grant))) return refuse(reply, cssPath);
      // The signature leaves the address bar (and any Referer) at once; the browser keeps its grant as a cookie.
      rt.adsManager.remember(reply, request, pagePath, act, grant);
      return reply.redirect(`${pagePath}?act=${encodeURIComponent(act)}`, 303);
    }
    if (!(await rt.adsManager.admit(request, act))) return refuse(reply, cssPath);
    // The account's id names its world (world/world-key.ts): the page shows and edits that world alone.
    const world = act ? rt.worldOfAccount(act) : undefined;
    const account = world?.world.account(act);
    if (!world || !account)
      return reply
        .code(404)
        .send(page(cssPath, '<h1>Ad account not found</h1><p class="error">No sandbox ad account has this id.</p>'));
    const now = rt.now();
    const rows = world.world
      .campaignsOf(account)
      .flatMap((campaign) => [
        entityRow(world, { kind: 'campaign', entity: campaign }, account, now, editPath),
        ...world.world
          .adSetsOf(campaign)
          .flatMap((adSet) => [
            entityRow(world, { kind: 'adset', entity: adSet }, account, now, editPath),
            ...world.world
              .adsOf(adSet)
              .map((ad) => entityRow(world, { kind: 'ad', entity: ad }, account, now, editPath)),
          ]),
      ]);
    return reply.send(
      page(
        cssPath,
        `<h1>${escapeHtml(account.name)}</h1>
<p class="notice">Sandbox Ads Manager: the simulated account AdPilot is connected to. Account ${account.id}, ${escapeHtml(
          account.currency,
        )}, ${escapeHtml(account.timezone)}.</p>
<table><thead><tr><th>Name</th><th>Level</th><th>Status</th><th>Budget</th><th>ID</th><th></th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`,
        'wide',
      ),
    );
  });
}
