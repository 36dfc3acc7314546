import type { EntityDecision, RulePreview } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useId } from 'react';
import { useWords } from '../hooks/use-words.ts';
import { figure, metricLabel, warningText } from '../lib/explain.ts';
import { ActionPlanLine } from './action-plan-line.tsx';
import { ExplanationView } from './explanation-view.tsx';

const BADGE = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium';

function EntityResult({ decision }: { decision: EntityDecision }) {
  const words = useWords();
  const { t } = words;
  const nameId = useId();
  const { entity } = decision;
  const status = decision.explanation.decision;
  return (
    <li role="group" aria-labelledby={nameId} className="rounded-lg border border-gray-200 p-3 dark:border-gray-700">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm">
          <span className="text-gray-500 dark:text-gray-400">{t(`levels.${entity.level}`)} · </span>
          <span id={nameId} className="font-medium break-all text-gray-900 dark:text-gray-100">
            {entity.name}
          </span>
        </p>
        <span
          className={clsx(
            BADGE,
            status === 'matched'
              ? 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200'
              : status === 'not_judged'
                ? 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200'
                : 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
          )}
        >
          {t(`explain.decision.${status}`)}
        </span>
      </div>
      {decision.values.length > 0 && (
        <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600 dark:text-gray-400">
          {decision.values.map((value) => (
            <div key={`${value.metric}-${value.window}-${value.includeToday}`} className="flex gap-1">
              <dt>
                {metricLabel(value.metric, words)} ({t(`windows.${value.window}`)})
              </dt>
              <dd className="font-medium text-gray-900 dark:text-gray-100">{figure(value.value, words)}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="mt-2">
        <ExplanationView explanation={decision.explanation} />
      </div>
      {decision.actions.length > 0 && (
        <div className="mt-2 space-y-1 border-t border-gray-100 pt-2 dark:border-gray-800">
          {decision.actions.map((plan) => (
            <ActionPlanLine
              key={`${plan.actionIndex}-${plan.target.externalId}`}
              type={plan.type}
              change={plan.change}
              skip={plan.skip}
              holderReason={plan.holderReason}
              targetName={plan.target.name}
              onHolder={plan.target.externalId !== entity.externalId}
              message={plan.message}
              adAccountId={plan.target.adAccountId}
            />
          ))}
        </div>
      )}
    </li>
  );
}

/** The answer of a preview: totals, warnings and per entity whether it matched, its values and what would change. */
export function PreviewResult({ preview }: { preview: RulePreview }) {
  const words = useWords();
  const { t } = words;
  // Matched entities first: they are the ones the rule would act on.
  const entities = [...preview.entities].sort((a, b) => Number(b.matched) - Number(a.matched));
  return (
    <div className="space-y-3">
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('preview.totals', preview.totals)}</p>
      {preview.warnings.length > 0 && (
        <ul className="space-y-1 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
          {preview.warnings.map((warning, index) => (
            <li key={index}>{warningText(warning, words)}</li>
          ))}
        </ul>
      )}
      {entities.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('preview.noEntities')}</p>
      ) : (
        <ul className="space-y-2">
          {entities.map((decision) => (
            <EntityResult key={`${decision.entity.adAccountId}-${decision.entity.externalId}`} decision={decision} />
          ))}
        </ul>
      )}
    </div>
  );
}
