import type { RuleActionRecord, RuleRun } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Undo2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRevertRuleAction, useRuleRuns } from '../api/rule-runs.ts';
import { useApiErrorText } from '../hooks/use-api-error-text.ts';
import { useWords } from '../hooks/use-words.ts';
import { runOutcomeText, runTally } from '../lib/consequences.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { ActionPlanLine } from './action-plan-line.tsx';
import { Section } from './builder/controls.tsx';
import { ExplanationView } from './explanation-view.tsx';
import { RevertDialog } from './rule-confirmations.tsx';
import { EntityLine } from '../../../components/entity-line.tsx';

const BADGE = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium';
const STATUS_COLOURS: Record<string, string> = {
  applied: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  completed: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  reverted: 'bg-purple-100 text-purple-800 dark:bg-purple-900/50 dark:text-purple-200',
};
const OTHER = 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300';

interface ActionRowProps {
  action: RuleActionRecord;
  reverting: boolean;
  /** Why the last revert of this action was refused, in words. */
  refusal?: string;
  onRevert: (action: RuleActionRecord) => void;
}

function ActionRow({ action, reverting, refusal, onRevert }: ActionRowProps) {
  const canEdit = useCan('editor');
  const words = useWords();
  const { t } = words;
  return (
    // A list item holding a named group: a <li> given role="group" would no longer be an item of its list.
    <li>
      <div
        role="group"
        aria-label={`${t(`actionTypes.${action.type}`)} · ${action.entity.name}`}
        className="space-y-2 rounded-lg border border-gray-200 p-3 dark:border-gray-700"
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <p className="text-sm">
              <span className="text-gray-500 dark:text-gray-400">{t(`levels.${action.entity.level}`)} · </span>
              <span className="font-medium break-all text-gray-900 dark:text-gray-100">{action.entity.name}</span>
            </p>
            <EntityLine entity={action.entity} />
            <p className="text-xs text-gray-500 dark:text-gray-400">
              {t('detail.metaId', { id: action.target.externalId })}
            </p>
            <ActionPlanLine
              type={action.type}
              change={action.change}
              holderReason={action.holderReason}
              targetName={action.target.name}
              onHolder={action.target.externalId !== action.entity.externalId}
              adAccountId={action.target.adAccountId}
            />
            {action.failure && (
              <p className="text-xs text-red-600 dark:text-red-400">
                {t(`activity:actionFailures.${action.failure.code}`)}
              </p>
            )}
          </div>
          <div className="flex items-center gap-2">
            <span className={clsx(BADGE, STATUS_COLOURS[action.status] ?? OTHER)}>
              {t(`detail.actionStatus.${action.status}`)}
            </span>
            {action.revertible && canEdit && (
              <Button
                size="sm"
                variant="secondary"
                loading={reverting}
                aria-label={t('detail.revertLabel', {
                  type: t(`actionTypes.${action.type}`),
                  name: action.target.name,
                })}
                onClick={() => onRevert(action)}
              >
                {!reverting && <Undo2 aria-hidden="true" className="size-4" />}
                {t('detail.revert')}
              </Button>
            )}
          </div>
        </div>
        {refusal && (
          <p role="alert" className="text-sm text-amber-800 dark:text-amber-300">
            {refusal}
          </p>
        )}
        <details className="text-sm">
          <summary className="cursor-pointer text-gray-600 dark:text-gray-400">{t('detail.why')}</summary>
          <div className="mt-1">
            <ExplanationView explanation={action.explanation} />
          </div>
        </details>
      </div>
    </li>
  );
}

function RunItem({ run, children }: { run: RuleRun; children: React.ReactNode }) {
  const words = useWords();
  const { t, language } = words;
  // A scheduled run's slot is its time; a manual run's slot is an id, so a queued manual run has no time yet.
  const when = run.startedAt ?? (Number.isNaN(Date.parse(run.slot)) ? null : run.slot);
  // A link to one run (the explorer's "last action") opens the rule scrolled to it.
  const { hash } = useLocation();
  const anchor = `run-${run.id}`;
  const item = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (hash === `#${anchor}`) item.current?.scrollIntoView?.({ block: 'start' });
  }, [hash, anchor]);
  return (
    <li ref={item} id={anchor} className="scroll-mt-20 space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {when && <span className="font-medium text-gray-900 dark:text-gray-100">{formatDateTime(when, language)}</span>}
        <span className="text-gray-600 dark:text-gray-400">{t(`detail.run.${run.trigger}`)}</span>
        <span className={clsx(BADGE, STATUS_COLOURS[run.status] ?? OTHER)}>{t(`detail.runStatus.${run.status}`)}</span>
        <span className="text-gray-600 dark:text-gray-400" data-testid="run-outcome">
          {runOutcomeText(run, words)}
        </span>
        {run.status === 'completed' && runTally(run).waiting > 0 && (
          <Link to="/inbox" className="font-medium text-blue-700 underline dark:text-blue-300">
            {t('runOutcome.openInbox')}
          </Link>
        )}
      </div>
      {children}
    </li>
  );
}

/** The rule's runs, newest first, each with its actions: before → after, status, why, and Revert. */
export function RunHistory({ ruleId }: { ruleId: string }) {
  const { t } = useTranslation('rules');
  const errorText = useApiErrorText();
  const runs = useRuleRuns(ruleId);
  const revert = useRevertRuleAction(ruleId);
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const [toRevert, setToRevert] = useState<RuleActionRecord | null>(null);

  const onRevert = (action: RuleActionRecord) => {
    setRefusals(({ [action.id]: _dropped, ...rest }) => rest);
    revert.mutate(action, {
      onSuccess: () => {
        setToRevert(null);
        toast.success(t('detail.reverted'));
      },
      onError: (error) => {
        setToRevert(null);
        setRefusals((current) => ({ ...current, [action.id]: errorText(error, t('detail.revertFailed')) }));
      },
    });
  };

  return (
    <Section title={t('detail.history')}>
      {runs.isPending && <Spinner label={t('detail.loadingRuns')} />}
      {runs.data?.length === 0 && <p className="text-sm text-gray-600 dark:text-gray-400">{t('detail.noRuns')}</p>}
      {runs.data && runs.data.length > 0 && (
        <ol className="space-y-5">
          {runs.data.map((run) => (
            <RunItem key={run.id} run={run}>
              {run.actions.length === 0 ? (
                run.status === 'completed' && (
                  <p className="text-sm text-gray-500 dark:text-gray-400">{t('detail.run.noActions')}</p>
                )
              ) : (
                <ul className="space-y-2">
                  {run.actions.map((action) => (
                    <ActionRow
                      key={action.id}
                      action={action}
                      reverting={revert.isPending && revert.variables.id === action.id}
                      refusal={refusals[action.id]}
                      onRevert={setToRevert}
                    />
                  ))}
                </ul>
              )}
            </RunItem>
          ))}
        </ol>
      )}
      <RevertDialog action={toRevert} busy={revert.isPending} onConfirm={onRevert} onCancel={() => setToRevert(null)} />
    </Section>
  );
}
