import type { FastifyInstance } from 'fastify';
import { describeAmount } from '../graph/objects.ts';
import type { GraphRuntime } from '../graph/runtime.ts';
import { budgetAt } from '../world/world.ts';
import type { BudgetChange, SandboxAccount, SandboxEntity } from '../world/types.ts';
import { escapeHtml, page } from './consent-page.ts';

function budgetText(budget: BudgetChange | undefined, account: SandboxAccount): string {
  if (budget?.dailyBudget !== undefined) return `${describeAmount(budget.dailyBudget, account.currency)} / day`;
  if (budget?.lifetimeBudget !== undefined)
    return `${describeAmount(budget.lifetimeBudget, account.currency)} lifetime`;
  return '—';
}

function entityRow(rt: GraphRuntime, target: SandboxEntity, account: SandboxAccount, now: number): string {
  const depth = { campaign: 0, adset: 1, ad: 2 }[target.kind];
  const budget = target.kind === 'ad' ? '—' : budgetText(budgetAt(target.entity.budgetLog, now), account);
  return `<tr class="depth-${depth}"><td>${escapeHtml(target.entity.name)}</td><td>${target.kind}</td><td>${escapeHtml(
    rt.world.effectiveStatus(target, now),
  )}</td><td>${escapeHtml(budget)}</td><td><code>${target.entity.id}</code></td></tr>`;
}

/** What "View in Facebook" opens in sandbox mode: a read-only view of one account's campaigns, ad sets and ads. */
export function registerAdsManagerPage(app: FastifyInstance, rt: GraphRuntime, cssPath: string): void {
  app.get('/adsmanager', (request, reply) => {
    const act = String((request.query as { act?: unknown }).act ?? '');
    const account = act ? rt.world.account(act) : undefined;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!account)
      return reply
        .code(404)
        .send(page(cssPath, '<h1>Ad account not found</h1><p class="error">No sandbox ad account has this id.</p>'));
    const now = rt.now();
    const rows = rt.world
      .campaignsOf(account)
      .flatMap((campaign) => [
        entityRow(rt, { kind: 'campaign', entity: campaign }, account, now),
        ...rt.world
          .adSetsOf(campaign)
          .flatMap((adSet) => [
            entityRow(rt, { kind: 'adset', entity: adSet }, account, now),
            ...rt.world.adsOf(adSet).map((ad) => entityRow(rt, { kind: 'ad', entity: ad }, account, now)),
          ]),
      ]);
    return reply.send(
      page(
        cssPath,
        `<h1>${escapeHtml(account.name)}</h1>
<p class="notice">Sandbox Ads Manager: the simulated account AdPilot is connected to. Account ${account.id}, ${escapeHtml(
          account.currency,
        )}, ${escapeHtml(account.timezone)}.</p>
<table><thead><tr><th>Name</th><th>Level</th><th>Status</th><th>Budget</th><th>ID</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`,
        'wide',
      ),
    );
  });
}
