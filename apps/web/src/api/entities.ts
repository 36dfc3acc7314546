import type { RuleEntityRef } from '@adpilot/contracts';

/*
 * How every page that names an ad entity links to its page in the explorer (`/campaigns/:id`) and names its parents,
 * so two ad sets with one name read apart (ADR 0105). Read by the Inbox, Activity, run history, impact and reports,
 * so it lives here rather than in the explorer's feature (ADR 0026).
 */

/**
 * The explorer's queries' prefix: a change made elsewhere (a suggestion confirmed in the AI studio) invalidates it,
 * so the explorer shows the new status or budget.
 */
export const ENTITIES_QUERY_KEY = ['entities'] as const;

export interface EntityParentRef {
  id: string;
  name: string;
}

export interface EntityParents {
  campaign?: EntityParentRef | null | undefined;
  adSet?: EntityParentRef | null | undefined;
}

/** An entity as other answers name it: our id when the answer carries it, its parents when known. */
export type NamedEntity = Partial<Pick<RuleEntityRef, 'adAccountId' | 'externalId' | 'level'>> & {
  name: string;
  /** Our id (`ad_entities.id`). */
  entityId?: string | null | undefined;
  id?: string | null | undefined;
  parents?: EntityParents | null | undefined;
};

/** The explorer's page of an entity, or null when the answer does not say which of ours it is. */
export function entityHref(entity: NamedEntity): string | null {
  const id = entity.entityId ?? null;
  return id ? `/campaigns/${encodeURIComponent(id)}` : null;
}

/** The parents' names, outermost first ("Summer sale › Broad 18-65+"), empty when the answer names none. */
export function parentTrail(parents: EntityParents | null | undefined): string[] {
  if (!parents) return [];
  return [parents.campaign?.name, parents.adSet?.name].filter((name): name is string => Boolean(name));
}
