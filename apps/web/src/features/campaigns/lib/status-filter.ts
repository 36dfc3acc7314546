/** The status filter's choices, each a set of Meta's effective statuses (sent comma-separated). */
export const STATUS_FILTERS = {
  all: '',
  active: 'ACTIVE',
  paused: 'PAUSED,CAMPAIGN_PAUSED,ADSET_PAUSED',
  issues: 'WITH_ISSUES,DISAPPROVED,PENDING_REVIEW,PENDING_BILLING_INFO',
  archived: 'ARCHIVED,DELETED',
} as const;
export type StatusFilter = keyof typeof STATUS_FILTERS;

export function isStatusFilter(value: unknown): value is StatusFilter {
  return typeof value === 'string' && Object.hasOwn(STATUS_FILTERS, value);
}
