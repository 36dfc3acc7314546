import type { CallKind } from '../stats.ts';
import { authenticate, type AuthNeed } from './authenticate.ts';
import { GraphError, legacyFeatureRefused, unsupportedRequest, type LegacyFeature } from './graph-error.ts';
import { handleBatch } from './handlers/batch.ts';
import { handleAsyncInsights, handleInsights, handleReportRun, handleReportRunInsights } from './handlers/insights.ts';
import { handleActivities } from './handlers/activities.ts';
import { handleAccessToken, handleDebugToken } from './handlers/oauth-token.ts';
import { handleAdAccounts, handleEdge, handleMe, handleObject } from './handlers/read.ts';
import { handleUpdate } from './handlers/update.ts';
import {
  handleCreateBudgetSchedule,
  handleDeleteBudgetSchedule,
  handleListBudgetSchedules,
  isBudgetSchedule,
} from './handlers/budget-schedules.ts';
import type { Auth, GraphAnswer, GraphCall, GraphRuntime } from './runtime.ts';
import type { UseCase } from './usage-meter.ts';

interface Route {
  kind: CallKind;
  auth: AuthNeed;
  useCase: UseCase;
  /** Meta's score: a read costs 1 point, a write 3. */
  points: number;
  /** Numeric ad account the call is about, for usage headers, stats and account-scoped faults. */
  accountId?: string;
  handle(auth: Auth): unknown;
}

const LIST_EDGES = new Set(['campaigns', 'adsets', 'ads']);

/** The ad account an id belongs to, looked up before authentication so even refused calls are counted. */
function accountIdOf(rt: GraphRuntime, id: string): string | undefined {
  if (id.startsWith('act_')) return rt.world.account(id)?.id;
  const target = rt.world.findEntity(id);
  if (target) return target.entity.accountId;
  return rt.reports.get(id)?.accountId;
}

/** Field aliases are written `name.as(other)` in `fields`, at any depth of a nested selection. */
const FIELD_ALIAS = /\.as\s*\(/i;

/** The closed protocol feature a call uses, if any; checked before routing, as Meta refuses it whatever the path. */
function legacyFeatureOf(call: GraphCall): LegacyFeature | undefined {
  const { params, segments } = call;
  if (params.method !== undefined) return 'method_override';
  if (params.callback !== undefined) return 'jsonp';
  if (params.date_format !== undefined) return 'date_format';
  if (params.fields !== undefined && FIELD_ALIAS.test(params.fields)) return 'field_alias';
  if (params.ids !== undefined && (segments.length === 0 || segments[0] === '')) return 'multi_id';
  return undefined;
}

function matchRoute(rt: GraphRuntime, call: GraphCall): Route {
  const { method, segments } = call;
  const [first, second, ...rest] = segments;
  const read = (kind: CallKind, handle: Route['handle'], accountId?: string): Route => ({
    kind,
    auth: 'user',
    useCase: 'ads_management',
    points: 1,
    ...(accountId ? { accountId } : {}),
    handle,
  });
  const unknown = (id: string): Route => ({
    ...read('unknown', () => undefined),
    handle: () => {
      throw unsupportedRequest(method, id);
    },
  });

  const refused = (kind: CallKind, feature: LegacyFeature): Route => ({
    ...read(kind, () => undefined),
    auth: 'none',
    handle: () => {
      throw legacyFeatureRefused(feature);
    },
  });
  const legacy = legacyFeatureOf(call);
  if (legacy) return refused(legacy === 'multi_id' ? 'ids' : 'unknown', legacy);

  if (rest.length > 0) return unknown(segments.join('/'));
  if (first === undefined || first === '') {
    if (method === 'POST') return { ...read('batch', () => handleBatch(rt, call, handleGraphCall)), auth: 'any' };
    if (call.params.ids !== undefined) return refused('ids', 'multi_id');
    return unknown('');
  }
  if (first === 'oauth' && second === 'access_token' && method === 'GET') {
    return { ...read('oauth_token', () => handleAccessToken(rt, call)), auth: 'none' };
  }
  if (first === 'debug_token' && second === undefined && method === 'GET') {
    return { ...read('debug_token', (auth) => handleDebugToken(rt, call, auth)), auth: 'any' };
  }
  if (first === 'me' && method === 'GET') {
    if (second === undefined) return read('me', (auth) => handleMe(rt, call, auth));
    if (second === 'adaccounts') return read('ad_accounts', (auth) => handleAdAccounts(rt, call, auth));
    return unknown(`me/${second}`);
  }

  if (second === undefined && method === 'DELETE' && isBudgetSchedule(rt, first)) {
    return {
      ...read('budget_schedules', (auth) => handleDeleteBudgetSchedule(rt, call, auth, first)),
      points: 3,
    };
  }
  const accountId = accountIdOf(rt, first);
  const isReportRun = rt.reports.get(first) !== undefined;
  if (second === 'budget_schedules' && !first.startsWith('act_')) {
    if (method === 'POST') {
      return {
        ...read('budget_schedules', (auth) => handleCreateBudgetSchedule(rt, call, auth, first), accountId),
        points: 3,
      };
    }
    if (method === 'GET') {
      return read('budget_schedules', (auth) => handleListBudgetSchedules(rt, call, auth, first), accountId);
    }
  }
  if (second === undefined) {
    if (method === 'POST') {
      return { ...read('update', (auth) => handleUpdate(rt, call, auth, first), accountId), points: 3 };
    }
    if (method === 'GET') {
      const kind: CallKind = first.startsWith('act_') ? 'account' : isReportRun ? 'report_run' : 'object';
      const handle: Route['handle'] = isReportRun
        ? (auth) => handleReportRun(rt, auth, first)
        : (auth) => handleObject(rt, call, auth, first);
      return read(kind, handle, accountId);
    }
    return unknown(first);
  }
  if (second === 'insights') {
    const insights = (kind: CallKind, handle: Route['handle']): Route => ({
      ...read(kind, handle, accountId),
      useCase: 'ads_insights',
    });
    if (isReportRun && method === 'GET')
      return insights('report_run', (auth) => handleReportRunInsights(rt, call, auth, first));
    if (method === 'GET') return insights('insights', (auth) => handleInsights(rt, call, auth, first));
    if (method === 'POST') return insights('insights_async', (auth) => handleAsyncInsights(rt, call, auth, first));
  }
  if (second === 'activities' && first.startsWith('act_') && method === 'GET') {
    return read('activities', (auth) => handleActivities(rt, call, auth, first), accountId);
  }
  if (LIST_EDGES.has(second) && method === 'GET') {
    return read(second as CallKind, (auth) => handleEdge(rt, call, auth, first, second), accountId);
  }
  return unknown(`${first}/${second}`);
}

function activeAdCount(rt: GraphRuntime, accountId: string): number {
  const account = rt.world.account(accountId);
  if (!account) return 0;
  const now = rt.now();
  return rt.world
    .accountAds(account)
    .filter((ad) => rt.world.effectiveStatus({ kind: 'ad', entity: ad }, now) === 'ACTIVE').length;
}

function rateLimitError(code: number, useCase: UseCase): GraphError {
  const docs = `https://developers.facebook.com/docs/graph-api/overview/rate-limiting#${useCase === 'ads_insights' ? 'ads-insights' : 'ads-management'}`;
  const messages: Record<number, [string, number | undefined]> = {
    4: ['(#4) Application request limit reached', useCase === 'ads_insights' ? 1504022 : undefined],
    17: ['(#17) User request limit reached', 2446079],
    32: ['(#32) Page request limit reached', undefined],
    613: ['(#613) Calls to this api have exceeded the rate limit.', 1487742],
    80000: [
      `(#80000) There have been too many calls from this ad-account. Wait a bit and try again. For more info, please refer to ${docs}.`,
      2446079,
    ],
    80004: [
      `(#80004) There have been too many calls to this ad-account. Wait a bit and try again. For more info, please refer to ${docs}.`,
      2446079,
    ],
  };
  const [message, subcode] = messages[code] ?? messages[80004] ?? ['Rate limited', undefined];
  return new GraphError({ message, code, ...(subcode !== undefined ? { subcode } : {}), isTransient: true });
}

/**
 * Answers one Graph call (an HTTP request or a batch item): route, count, authenticate, apply faults, run the
 * handler, and attach the usage headers Meta sends with every answer, errors included.
 */
export function handleGraphCall(host: GraphRuntime, call: GraphCall): GraphAnswer {
  // Every call runs in its token's world: an id of another world is unknown here, as an object Meta hides.
  const rt = host.forToken(call.token);
  const route = matchRoute(rt, call);
  rt.stats.record(route.kind, route.accountId, call.inBatch);
  const now = rt.now();
  let regainMinutes: number | undefined;
  let answer: GraphAnswer;
  try {
    if (!call.inBatch && rt.faults.takeServerError()) {
      throw new GraphError({
        message: 'An unexpected error has occurred. Please retry your request later.',
        code: 2,
        status: 500,
        isTransient: true,
      });
    }
    const auth = authenticate(rt, call, route.auth);
    if (auth.kind === 'user') {
      const fault = rt.faults.takeRateLimit(route.accountId);
      if (fault) {
        regainMinutes = fault.regainMinutes ?? 5;
        throw rateLimitError(fault.code ?? 80004, route.useCase);
      }
      // Past the quota the call is refused without running, as Meta does; the headers say when to come back.
      const throttle = route.accountId
        ? rt.usage.throttle(route.accountId, route.useCase, activeAdCount(rt, route.accountId), now)
        : undefined;
      if (throttle) {
        regainMinutes = throttle.regainMinutes;
        throw new GraphError({
          message: throttle.message,
          code: throttle.code,
          subcode: throttle.subcode,
          isTransient: true,
        });
      }
    }
    rt.usage.record(route.accountId, route.useCase, route.points, now);
    answer = { status: 200, headers: {}, body: route.handle(auth) };
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    answer = { status: error.status, headers: error.headers, body: error.toBody(rt.traceId()) };
  }
  const usage = rt.usage.headers({
    accountId: route.accountId,
    useCase: route.useCase,
    isInsights: route.useCase === 'ads_insights',
    activeAds: route.accountId ? activeAdCount(rt, route.accountId) : 0,
    now,
    ...(regainMinutes !== undefined ? { regainMinutes } : {}),
  });
  answer.headers = { ...usage, ...answer.headers };
  return answer;
}
