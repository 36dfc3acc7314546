/* The entities API's answers as the explorer reads them (packages/contracts/src/entities.ts). */
export type { EntityActionItem, EntityActionResult, EntityDetail, EntityList, EntityRow } from '@adpilot/contracts';

export type EntityLevel = 'campaign' | 'adset' | 'ad';
export const ENTITY_LEVEL_LIST: readonly EntityLevel[] = ['campaign', 'adset', 'ad'];

/** The level an expanded row lists: a campaign's ad sets, an ad set's ads. */
export function childLevel(level: EntityLevel): EntityLevel | null {
  return level === 'campaign' ? 'adset' : level === 'adset' ? 'ad' : null;
}
