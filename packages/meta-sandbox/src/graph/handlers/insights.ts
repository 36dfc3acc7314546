import {
  buildInsightsRows,
  estimateRowCount,
  type InsightsLevel,
  type InsightsScope,
} from '../../metrics/insights-rows.ts';
import { ownAccount, ownEntity, requireScope, requireUser } from '../authenticate.ts';
import { GraphError, invalidParameter, unsupportedRequest } from '../graph-error.ts';
import { cachedInsightsRows } from '../insights-cache.ts';
import { parseInsightsQuery } from '../insights-params.ts';
import { MAX_INSIGHTS_PAGE_SIZE, paginate } from '../paging.ts';
import type { ReportRun } from '../report-runs.ts';
import { pageLink, type Auth, type GraphCall, type GraphRuntime, type UserAuth } from '../runtime.ts';

function scopeOf(
  rt: GraphRuntime,
  user: UserAuth,
  id: string,
  method: string,
): { scope: InsightsScope; level: InsightsLevel } {
  if (id.startsWith('act_')) {
    const account = ownAccount(rt, user, id, method);
    return { scope: { account, ads: rt.world.accountAds(account) }, level: 'account' };
  }
  const target = ownEntity(rt, user, id, method);
  const account = rt.world.accountOf(target.entity);
  if (target.kind === 'ad') return { scope: { account, ads: [target.entity] }, level: 'ad' };
  const adSets = target.kind === 'campaign' ? rt.world.adSetsOf(target.entity) : [target.entity];
  return { scope: { account, ads: adSets.flatMap((adSet) => rt.world.adsOf(adSet)) }, level: target.kind };
}

function prepare(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string) {
  const user = requireUser(auth);
  requireScope(user, 'read');
  const { scope, level } = scopeOf(rt, user, id, call.method);
  const now = rt.now();
  const query = parseInsightsQuery(call.params, level, scope.account.timezone, now, rt.world.historyStart);
  return { user, scope, query, now };
}

/** Meta's answer to a synchronous insights request too big to compute: HTTP 500, code 1, subcode 99. */
export function tooMuchData(): GraphError {
  return new GraphError({
    message: "Please reduce the amount of data you're asking for, then retry your request",
    code: 1,
    subcode: 99,
    status: 500,
  });
}

/** Synchronous insights; refuses what would be too many rows, as Meta does, so callers learn the async flow. */
export function handleInsights(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const { scope, query, now } = prepare(rt, call, auth, id);
  if (estimateRowCount(scope, query) > rt.settings.maxSyncInsightsRows) throw tooMuchData();
  const rows = cachedInsightsRows(rt.world, `${id}|${JSON.stringify(query)}`, now, () =>
    buildInsightsRows(rt.world, rt.delivery, scope, query, now),
  );
  return paginate(rows, call.params, pageLink(call), 25, MAX_INSIGHTS_PAGE_SIZE);
}

export function handleAsyncInsights(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const { user, scope, query, now } = prepare(rt, call, auth, id);
  const run = rt.reports.create({
    accountId: scope.account.id,
    world: rt.worldKey,
    personaId: user.persona.id,
    timezone: scope.account.timezone,
    dateStart: query.since,
    dateStop: query.until,
    createdAt: now,
    rows: buildInsightsRows(rt.world, rt.delivery, scope, query, now),
  });
  return { report_run_id: run.id };
}

function ownRun(rt: GraphRuntime, auth: Auth, id: string, method: string): ReportRun {
  const user = requireUser(auth);
  const run = rt.reports.get(id);
  if (!run || run.world !== rt.worldKey || run.personaId !== user.persona.id) throw unsupportedRequest(method, id);
  return run;
}

export function handleReportRun(rt: GraphRuntime, auth: Auth, id: string): unknown {
  return rt.reports.poll(ownRun(rt, auth, id, 'GET'), rt.now());
}

export function handleReportRunInsights(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const run = ownRun(rt, auth, id, call.method);
  if (!rt.reports.isComplete(run)) {
    throw invalidParameter('The report is not ready yet: poll the report run until async_status is Job Completed');
  }
  return paginate(run.rows, call.params, pageLink(call), 25, MAX_INSIGHTS_PAGE_SIZE);
}
