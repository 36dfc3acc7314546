import { localDate, zoneOffsetMs } from '@adpilot/contracts';
import { currencyOffset } from '../world/seed.ts';
import { hashString } from '../world/random.ts';
import { DAY_MS, formatGraphTime, HOUR_MS } from '../world/time-zone.ts';
import { budgetAt, statusAt } from '../world/world.ts';
import type {
  SandboxAccount,
  SandboxAd,
  SandboxAdSet,
  SandboxCampaign,
  SandboxPersona,
  StatusChange,
} from '../world/types.ts';
import { nonexistingField } from './graph-error.ts';
import type { GraphRuntime } from './runtime.ts';

type Getter<T> = (entity: T, rt: GraphRuntime) => unknown;

/** Picks the requested fields; unknown names fail as on Graph, values that are not set are left out. */
function select<T>(
  nodeType: string,
  getters: Record<string, Getter<T>>,
  entity: T,
  rt: GraphRuntime,
  fields: readonly string[],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fields.length > 0 ? fields : ['id']) {
    const getter = getters[field];
    if (!getter) throw nonexistingField(field, nodeType);
    const value = getter(entity, rt);
    if (value !== undefined) result[field] = value;
  }
  if (!('id' in result) && getters.id) result.id = getters.id(entity, rt);
  return result;
}

const accountOf = (entity: { accountId: string }, rt: GraphRuntime): SandboxAccount => rt.world.accountOf(entity);
const time = (instant: number, entity: { accountId: string }, rt: GraphRuntime): string =>
  formatGraphTime(instant, accountOf(entity, rt).timezone);

/** What is left of today's budget: daily budget minus today's spend, in minor units. */
function budgetRemaining(owner: SandboxCampaign | SandboxAdSet, rt: GraphRuntime): string | undefined {
  const now = rt.now();
  const budget = budgetAt(owner.budgetLog, now);
  if (budget?.dailyBudget === undefined) return undefined;
  const today = localDate(accountOf(owner, rt).timezone, now);
  return String(Math.max(0, Math.round(budget.dailyBudget - rt.delivery.poolSpend(owner, today, now))));
}

const configuredStatus = (entity: { statusLog: StatusChange[] }, rt: GraphRuntime) =>
  statusAt(entity.statusLog, rt.now());
/** The sandbox has no scheduled-status subtleties: status and configured_status always agree. */
const statusGetters = { status: configuredStatus, configured_status: configuredStatus };

const budgetGetters = {
  daily_budget: (owner: SandboxCampaign | SandboxAdSet, rt: GraphRuntime) => {
    const value = budgetAt(owner.budgetLog, rt.now())?.dailyBudget;
    return value === undefined ? undefined : String(value);
  },
  lifetime_budget: (owner: SandboxCampaign | SandboxAdSet, rt: GraphRuntime) => {
    const value = budgetAt(owner.budgetLog, rt.now())?.lifetimeBudget;
    return value === undefined ? undefined : String(value);
  },
  budget_remaining: budgetRemaining,
};

const entityTimes = {
  created_time: (entity: SandboxCampaign | SandboxAdSet | SandboxAd, rt: GraphRuntime) =>
    time(entity.createdTime, entity, rt),
  updated_time: (entity: SandboxCampaign | SandboxAdSet | SandboxAd, rt: GraphRuntime) =>
    time(entity.updatedTime, entity, rt),
};

const LEARNING_DAYS = 7;

/**
 * An ad set learns for about a week after it starts or after a significant edit (a budget change here); after
 * that it has either exited learning or is "learning limited", which the seeded key decides for a quarter of them.
 */
function learningStageInfo(adSet: SandboxAdSet, rt: GraphRuntime): Record<string, unknown> {
  const now = rt.now();
  const edits = [adSet.createdTime, ...adSet.budgetLog.map((change) => change.at)].filter((at) => at <= now);
  const lastEdit = Math.max(...edits);
  const learning = now - lastEdit < LEARNING_DAYS * DAY_MS;
  const limited = !learning && (hashString(adSet.id) ^ rt.world.seedKey) % 4 === 0;
  return {
    status: learning ? 'LEARNING' : limited ? 'FAIL' : 'SUCCESS',
    last_sig_edit_ts: Math.floor(lastEdit / 1000),
    attribution_windows: ['7d_click', '1d_view'],
  };
}

const ISSUES: Partial<Record<string, { summary: string; message: string; type: string }>> = {
  DISAPPROVED: {
    summary: 'Ad rejected',
    message: "This ad doesn't follow the Advertising Standards. Edit the ad or request another review.",
    type: 'HARD_ERROR',
  },
  WITH_ISSUES: {
    summary: 'Ad has delivery issues',
    message: 'The landing page could not be reached, so this ad is not delivering.',
    type: 'SOFT_ERROR',
  },
};

/** Delivery issues of a rejected or troubled ad; absent when there are none, as on Meta. */
function issuesInfo(ad: SandboxAd, rt: GraphRuntime): Record<string, unknown>[] | undefined {
  const issue = ISSUES[rt.world.effectiveStatus({ kind: 'ad', entity: ad }, rt.now())];
  if (!issue) return undefined;
  return [{ level: 'AD', error_summary: issue.summary, error_message: issue.message, error_type: issue.type }];
}

const ACCOUNT_FIELDS: Record<string, Getter<SandboxAccount>> = {
  id: (account) => `act_${account.id}`,
  account_id: (account) => account.id,
  name: (account) => account.name,
  currency: (account) => account.currency,
  timezone_name: (account) => account.timezone,
  timezone_offset_hours_utc: (account, rt) => zoneOffsetMs(account.timezone, rt.now()) / HOUR_MS,
  account_status: (account) => account.accountStatus,
  disable_reason: (account) => account.disableReason,
  amount_spent: (account, rt) => String(rt.delivery.accountSpend(account, rt.now())),
  balance: () => '0',
  spend_cap: () => '0',
  min_daily_budget: (account) => account.minDailyBudget,
  business: (account, rt) => {
    const persona = rt.world.persona(account.personaId);
    return persona ? { id: persona.businessId, name: persona.businessName } : undefined;
  },
  created_time: (account) => formatGraphTime(account.createdTime, account.timezone),
};

const CAMPAIGN_FIELDS: Record<string, Getter<SandboxCampaign>> = {
  id: (campaign) => campaign.id,
  account_id: (campaign) => campaign.accountId,
  name: (campaign) => campaign.name,
  ...statusGetters,
  effective_status: (campaign, rt) => rt.world.effectiveStatus({ kind: 'campaign', entity: campaign }, rt.now()),
  objective: (campaign) => campaign.objective,
  buying_type: () => 'AUCTION',
  bid_strategy: (campaign) => campaign.bidStrategy,
  special_ad_categories: () => [],
  ...budgetGetters,
  start_time: (campaign, rt) => time(campaign.startTime, campaign, rt),
  stop_time: () => undefined,
  ...entityTimes,
};

const AD_SET_FIELDS: Record<string, Getter<SandboxAdSet>> = {
  id: (adSet) => adSet.id,
  account_id: (adSet) => adSet.accountId,
  campaign_id: (adSet) => adSet.campaignId,
  name: (adSet) => adSet.name,
  ...statusGetters,
  effective_status: (adSet, rt) => rt.world.effectiveStatus({ kind: 'adset', entity: adSet }, rt.now()),
  ...budgetGetters,
  bid_strategy: (adSet) => adSet.bidStrategy,
  bid_amount: (adSet) => adSet.bidAmount,
  billing_event: () => 'IMPRESSIONS',
  optimization_goal: (adSet) => adSet.optimizationGoal,
  start_time: (adSet, rt) => time(adSet.startTime, adSet, rt),
  end_time: (adSet, rt) => (adSet.endTime === undefined ? undefined : time(adSet.endTime, adSet, rt)),
  learning_stage_info: learningStageInfo,
  ...entityTimes,
};

const AD_FIELDS: Record<string, Getter<SandboxAd>> = {
  id: (ad) => ad.id,
  account_id: (ad) => ad.accountId,
  campaign_id: (ad) => ad.campaignId,
  adset_id: (ad) => ad.adSetId,
  name: (ad) => ad.name,
  ...statusGetters,
  effective_status: (ad, rt) => rt.world.effectiveStatus({ kind: 'ad', entity: ad }, rt.now()),
  issues_info: issuesInfo,
  ...entityTimes,
};

const USER_FIELDS: Record<string, Getter<SandboxPersona>> = {
  id: (persona) => persona.id,
  name: (persona) => persona.name,
};

export const formatAccount = (account: SandboxAccount, rt: GraphRuntime, fields: readonly string[]) =>
  select('AdAccount', ACCOUNT_FIELDS, account, rt, fields);
export const formatCampaign = (campaign: SandboxCampaign, rt: GraphRuntime, fields: readonly string[]) =>
  select('Campaign', CAMPAIGN_FIELDS, campaign, rt, fields);
export const formatAdSet = (adSet: SandboxAdSet, rt: GraphRuntime, fields: readonly string[]) =>
  select('AdSet', AD_SET_FIELDS, adSet, rt, fields);
export const formatAd = (ad: SandboxAd, rt: GraphRuntime, fields: readonly string[]) =>
  select('Ad', AD_FIELDS, ad, rt, fields);
export const formatUser = (persona: SandboxPersona, rt: GraphRuntime, fields: readonly string[]) =>
  select('User', USER_FIELDS, persona, rt, fields.length > 0 ? fields : ['id', 'name']);

/** Major-unit amount for messages, e.g. "THB 35.00". */
export function describeAmount(minor: number, currency: string): string {
  const offset = currencyOffset(currency);
  return `${currency} ${(minor / offset).toFixed(offset === 1 ? 0 : 2)}`;
}
