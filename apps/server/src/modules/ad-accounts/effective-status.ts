/**
 * The effective status Meta derives for an entity from its own status and its parents' (Marketing API
 * `effective_status`): a paused, archived or deleted entity is that; an active one under a paused campaign or ad set
 * is `CAMPAIGN_PAUSED` or `ADSET_PAUSED` (an archived or deleted parent passes on its own status); else it delivers,
 * unless Meta holds it in a state of its own (review, issues), which only the next sync can tell, so it is kept.
 */
const DERIVED = new Set(['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED']);

export interface StatusLine {
  status: string;
  effectiveStatus: string;
  /** The parent campaign's own status (null for a campaign). */
  campaignStatus: string | null;
  /** The parent ad set's own status (for an ad only). */
  adsetStatus: string | null;
}

export function effectiveStatusOf(line: StatusLine): string {
  if (line.status !== 'ACTIVE') return line.status;
  for (const [parent, paused] of [
    [line.campaignStatus, 'CAMPAIGN_PAUSED'],
    [line.adsetStatus, 'ADSET_PAUSED'],
  ] as const) {
    if (parent === 'ARCHIVED' || parent === 'DELETED') return parent;
    if (parent === 'PAUSED') return paused;
  }
  return DERIVED.has(line.effectiveStatus) ? 'ACTIVE' : line.effectiveStatus;
}
