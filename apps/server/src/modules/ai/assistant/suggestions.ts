import { SUGGESTED_CHANGES_MAX, type EntityActionItem, type SuggestedChange } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import type { ManualActionsService } from '../../entities/index.ts';
import { entityHref } from './explorer-tools.ts';

/** A change the analyst or the model would suggest, before it is checked: the item, its entity's name, why. */
export interface ChangeCandidate {
  change: EntityActionItem;
  /** Empty when only the id is known (a model's change): it is read then. */
  name: string;
  reason: string;
  /** What to suggest instead when this change's budget is held by its children (a campaign with ad-set budgets). */
  instead?: ChangeCandidate | undefined;
}

/**
 * The assistant's suggested changes (issue 29, ADR 0156): each candidate is run as a dry run of the explorer's
 * manual actions, as the member who asked, so it shows the same from → to and the same refusals the explorer's
 * confirmation would; only those that would apply are suggested. Nothing is written here: the person's confirmation
 * sends the change to the explorer's route, the one write path.
 */
export class Suggestions {
  constructor(
    private readonly actions: () => Pick<ManualActionsService, 'run'>,
    /** An entity's name, for a model's change that names only its id. */
    private readonly nameOf: (scope: TenantScope, entityId: string) => Promise<string | null>,
  ) {}

  async check(scope: TenantScope, candidates: readonly ChangeCandidate[]): Promise<SuggestedChange[]> {
    const unique = [...new Map(candidates.map((c) => [c.change.entityId, c])).values()].slice(0, SUGGESTED_CHANGES_MAX);
    if (unique.length === 0 || !scope.userId) return [];
    const dryRun = (changes: readonly ChangeCandidate[]) =>
      this.actions().run(
        scope,
        changes.map((c) => c.change),
        { actor: { type: 'person', userId: scope.userId! }, mode: 'dry_run' },
      );
    const first = await dryRun(unique);
    // A budget held by the children: the child named instead, dry-run too.
    const retried = unique.map((c, index) =>
      first[index]?.code === 'NO_BUDGET_HOLDER' && c.instead ? c.instead : null,
    );
    const again = retried.filter((c): c is ChangeCandidate => c !== null);
    const second = again.length > 0 ? await dryRun(again) : [];
    const chosen = unique.map((c, index) => retried[index] ?? c);
    const results = unique.map((_, index) => (retried[index] ? second[again.indexOf(retried[index])] : first[index]));
    const names = await Promise.all(
      chosen.map(async (c) => c.name || (await this.nameOf(scope, c.change.entityId)) || c.change.entityId),
    );
    return chosen.flatMap((candidate, index) => {
      const result = results[index];
      if (!result || result.outcome !== 'would_apply' || result.field === null) return [];
      if (result.from === null || result.to === null) return [];
      return [
        {
          change: candidate.change,
          name: names[index]!.slice(0, 200),
          href: entityHref(candidate.change.entityId),
          field: result.field,
          from: result.from,
          to: result.to,
          currency: result.currency,
          reason: candidate.reason.slice(0, 1000),
        },
      ];
    });
  }
}
