import type { ActionPlan, RulePreview, RuleRun } from '@adpilot/contracts';
import { skipText, type Words } from './explain.ts';

/**
 * What a run would do, in numbers, and what a run did, with the reason nothing was applied: the words the
 * confirmations and the run outcomes share (ADR 0058). Counts come from the preview the builder shows; reasons from
 * the codes the run stored.
 */

type ChangeGroup = { verb: ActionPlan['type']; object: 'ad' | 'adset' | 'campaign' | 'budget' | 'notification' };

function groupOf(plan: ActionPlan): ChangeGroup {
  if (plan.type === 'pause' || plan.type === 'resume') return { verb: plan.type, object: plan.target.level };
  if (plan.type === 'notify') return { verb: 'notify', object: 'notification' };
  return { verb: plan.type, object: 'budget' };
}

/** The planned actions of a preview, counted per verb and object, in the order the rule lists its actions. */
export function plannedChanges(preview: RulePreview): { group: ChangeGroup; count: number }[] {
  const counts = new Map<string, { group: ChangeGroup; count: number; order: number }>();
  for (const entity of preview.entities) {
    for (const plan of entity.actions) {
      if (plan.outcome !== 'planned') continue;
      const group = groupOf(plan);
      const key = `${group.verb}:${group.object}`;
      const seen = counts.get(key);
      if (seen) seen.count += 1;
      else counts.set(key, { group, count: 1, order: plan.actionIndex });
    }
  }
  return [...counts.values()].sort((a, b) => a.order - b.order).map(({ group, count }) => ({ group, count }));
}

/** "pause 20 ads and raise 3 budgets", or null when nothing would change. */
export function changesText(preview: RulePreview, words: Words): string | null {
  const parts = plannedChanges(preview).map(({ group, count }) =>
    words.t(`confirmations.verbs.${group.verb}`, {
      what: words.t(`confirmations.objects.${group.object}`, { count }),
    }),
  );
  if (parts.length === 0) return null;
  return new Intl.ListFormat(words.language, { style: 'long', type: 'conjunction' }).format(parts);
}

/** Every planned action of a preview with its entity, for the list under the question. */
export function plannedItems(preview: RulePreview) {
  return preview.entities.flatMap((entity) =>
    entity.actions.filter((plan) => plan.outcome === 'planned').map((plan) => ({ entity: entity.entity, plan })),
  );
}

const isFinished = (run: RuleRun) => run.status === 'completed' || run.status === 'failed';

/** Why an applied count is short: the first stored reason (a safeguard's skip, then an action's failure). */
function shortfallReason(run: RuleRun, words: Words): string | null {
  const skip = run.skipped[0];
  const failure = run.actions.find((action) => action.failure)?.failure;
  let reason: string | null = null;
  if (skip) reason = skipText(skip.skip, words);
  else if (failure) reason = words.t(`activity:actionFailures.${failure.code}`);
  if (!reason) return null;
  const others = run.skipped.length + run.actions.filter((action) => action.failure).length - 1;
  return others > 0 ? words.t('runOutcome.andOthers', { reason, count: others }) : reason;
}

/** A finished run's ledger rows, counted by what they did: written, waiting for a person, only told, closed, failed. */
export function runTally(run: RuleRun) {
  const count = (...statuses: RuleRun['actions'][number]['status'][]) =>
    run.actions.filter((action) => statuses.includes(action.status)).length;
  return {
    applied: count('applied', 'reverted'),
    waiting: count('proposed'),
    closed: count('rejected', 'expired', 'stale'),
    notified: count('notified'),
    postponed: count('postponed', 'pending'),
    failed: count('failed'),
  };
}

/**
 * A run in one line, what it did in words: "6 checked, 6 matched: 4 changes wait for your approval", "3 checked,
 * 1 matched: nothing changed — Skipped: in its 24-hour cooldown until …". A failed run names its error; an open run
 * only its counts so far.
 */
export function runOutcomeText(run: RuleRun, words: Words): string {
  if (run.status === 'failed' && run.error) {
    return words.t('runOutcome.failed', { reason: words.t(`activity:runErrors.${run.error.code}`) });
  }
  const counts = words.t('detail.run.counts', { evaluated: run.evaluated, matched: run.matched });
  if (!isFinished(run)) return counts;
  const tally = runTally(run);
  const parts: string[] = [];
  if (tally.applied > 0) parts.push(words.t('runOutcome.appliedCount', { count: tally.applied }));
  if (tally.waiting > 0) parts.push(words.t('runOutcome.waiting', { count: tally.waiting }));
  if (tally.closed > 0) parts.push(words.t('runOutcome.closed', { count: tally.closed }));
  if (tally.notified > 0) parts.push(words.t('runOutcome.notified', { count: tally.notified }));
  if (tally.postponed > 0) parts.push(words.t('runOutcome.postponed', { count: tally.postponed }));
  if (tally.failed > 0) parts.push(words.t('runOutcome.failedCount', { count: tally.failed }));
  const done =
    parts.length > 0
      ? new Intl.ListFormat(words.language, { style: 'long', type: 'conjunction' }).format(parts)
      : words.t(run.matched > 0 ? 'runOutcome.nothingChanged' : 'runOutcome.nothingToDo');
  const summary = words.t('runOutcome.summary', { counts, outcome: done });
  const acted = tally.applied + tally.waiting + tally.notified;
  const short = run.matched > 0 && (acted === 0 || run.skipped.length > 0 || tally.failed > 0);
  const reason = short ? shortfallReason(run, words) : null;
  return reason ? words.t('runOutcome.because', { summary, reason }) : summary;
}
