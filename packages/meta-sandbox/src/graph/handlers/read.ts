import type { SandboxAd, SandboxCampaign, SandboxEntity } from '../../world/types.ts';
import { ownAccount, ownEntity, requireScope, requireUser } from '../authenticate.ts';
import { invalidParameter, nonexistingField } from '../graph-error.ts';
import { formatAccount, formatAd, formatAdSet, formatCampaign, formatUser } from '../objects.ts';
import { mapPage, paginate } from '../paging.ts';
import { fieldList, jsonParam } from '../params.ts';
import { pageLink, type Auth, type GraphCall, type GraphRuntime, type UserAuth } from '../runtime.ts';

const EFFECTIVE_STATUSES = new Set([
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'ARCHIVED',
  'CAMPAIGN_PAUSED',
  'ADSET_PAUSED',
  'IN_PROCESS',
  'WITH_ISSUES',
  'DISAPPROVED',
  'PENDING_REVIEW',
  'PENDING_BILLING_INFO',
  'PREAPPROVED',
]);

const NODE_TYPE: Record<SandboxEntity['kind'], string> = { campaign: 'Campaign', adset: 'AdSet', ad: 'Ad' };

export function formatEntity(
  rt: GraphRuntime,
  target: SandboxEntity,
  fields: readonly string[],
): Record<string, unknown> {
  if (target.kind === 'campaign') return formatCampaign(target.entity, rt, fields);
  if (target.kind === 'adset') return formatAdSet(target.entity, rt, fields);
  return formatAd(target.entity, rt, fields);
}

export function handleMe(rt: GraphRuntime, call: GraphCall, auth: Auth): unknown {
  return formatUser(requireUser(auth).persona, rt, fieldList(call.params.fields));
}

export function handleAdAccounts(rt: GraphRuntime, call: GraphCall, auth: Auth): unknown {
  const user = requireUser(auth);
  requireScope(user, 'read');
  const fields = fieldList(call.params.fields);
  const accounts = user.persona.accountIds.flatMap((id) => rt.world.account(id) ?? []);
  return mapPage(paginate(accounts, call.params, pageLink(call)), (account) => formatAccount(account, rt, fields));
}

export function handleObject(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string): unknown {
  const user = requireUser(auth);
  requireScope(user, 'read');
  const fields = fieldList(call.params.fields);
  if (id.startsWith('act_')) return formatAccount(ownAccount(rt, user, id, call.method), rt, fields);
  return formatEntity(rt, ownEntity(rt, user, id, call.method), fields);
}

/** Without a filter Meta leaves archived and deleted objects out of lists. */
const PUT_AWAY = new Set(['ARCHIVED', 'DELETED']);

function effectiveStatusFilter(call: GraphCall): Set<string> | undefined {
  const value = jsonParam(call.params, 'effective_status');
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((status) => typeof status !== 'string' || !EFFECTIVE_STATUSES.has(status))) {
    throw invalidParameter(`Param effective_status must be an array of ${[...EFFECTIVE_STATUSES].join(', ')}`);
  }
  if (value.includes('DELETED')) {
    throw invalidParameter('Filtering on DELETED is not supported: read a deleted object by its id');
  }
  return new Set(value as string[]);
}

/** Children lists: act_/campaigns|adsets|ads, campaign/adsets|ads, adset/ads. */
export function handleEdge(rt: GraphRuntime, call: GraphCall, auth: Auth, id: string, edge: string): unknown {
  const user = requireUser(auth);
  requireScope(user, 'read');
  return listEntities(rt, call, edgeItems(rt, user, call.method, id, edge));
}

function edgeItems(rt: GraphRuntime, user: UserAuth, method: string, id: string, edge: string): SandboxEntity[] {
  let campaigns: SandboxCampaign[];
  if (id.startsWith('act_')) {
    campaigns = rt.world.campaignsOf(ownAccount(rt, user, id, method));
  } else {
    const target = ownEntity(rt, user, id, method);
    if (target.kind === 'adset' && edge === 'ads') return rt.world.adsOf(target.entity).map(asAd);
    if (target.kind !== 'campaign' || edge === 'campaigns') throw nonexistingField(edge, NODE_TYPE[target.kind]);
    campaigns = [target.entity];
  }
  if (edge === 'campaigns') return campaigns.map((entity) => ({ kind: 'campaign', entity }));
  const adSets = campaigns.flatMap((campaign) => rt.world.adSetsOf(campaign));
  if (edge === 'adsets') return adSets.map((entity) => ({ kind: 'adset', entity }));
  return adSets.flatMap((adSet) => rt.world.adsOf(adSet)).map(asAd);
}

const asAd = (entity: SandboxAd): SandboxEntity => ({ kind: 'ad', entity });

function listEntities(rt: GraphRuntime, call: GraphCall, items: SandboxEntity[]): unknown {
  const filter = effectiveStatusFilter(call);
  const now = rt.now();
  const visible = items.filter((item) => {
    const status = rt.world.effectiveStatus(item, now);
    return filter ? filter.has(status) : !PUT_AWAY.has(status);
  });
  const fields = fieldList(call.params.fields);
  return mapPage(paginate(visible, call.params, pageLink(call)), (item) => formatEntity(rt, item, fields));
}
