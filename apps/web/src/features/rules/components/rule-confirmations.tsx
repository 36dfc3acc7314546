import type { Rule, RuleActionRecord } from '@adpilot/contracts';
import { Play } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { useAdAccountCurrency } from '../../../api/ad-accounts.ts';
import { Button, type ButtonSize } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useSavedRulePreview } from '../api/preview-rule.ts';
import { useRunRuleNow } from '../api/rule-runs.ts';
import { useApiErrorText } from '../hooks/use-api-error-text.ts';
import { useWords } from '../hooks/use-words.ts';
import { changesText, plannedItems, runOutcomeText, runTally } from '../lib/consequences.ts';
import { changeText } from '../lib/explain.ts';
import { windowsText } from '../lib/windows-text.ts';
import { ActionPlanLine } from './action-plan-line.tsx';

/**
 * What the rule would do now, from the preview the builder shows: the numbers in one sentence, the held-back count,
 * and the list of every planned change behind an expander. `lead` words the sentence for the question asked.
 */
function PreviewConsequences({
  ruleId,
  lead,
  mode,
}: {
  ruleId: string;
  lead: 'runNow' | 'activate';
  /** A rule that asks first or only tells changes nothing itself: the dialog says so under the numbers. */
  mode: Rule['mode'];
}) {
  const words = useWords();
  const { t } = words;
  const preview = useSavedRulePreview(ruleId, true);
  if (preview.isPending) return <Spinner label={t('confirmations.loading')} />;
  if (preview.isError) return <p>{t('confirmations.previewFailed')}</p>;
  const changes = changesText(preview.data, words);
  const items = plannedItems(preview.data);
  const { evaluated, matched, skipped } = preview.data.totals;
  return (
    <div className="space-y-2" data-testid="preview-consequences">
      <p className="font-medium text-gray-900 dark:text-gray-100">
        {changes ? t(`confirmations.${lead}.will`, { changes }) : t(`confirmations.${lead}.nothing`)}
      </p>
      <p>
        {t('confirmations.totals', { evaluated, matched })}
        {skipped > 0 && ` ${t('confirmations.heldBack', { count: skipped })}`}
      </p>
      {mode !== 'auto' && changes && (
        <p className="font-medium text-blue-800 dark:text-blue-300">{t(`confirmations.mode.${mode}`)}</p>
      )}
      {items.length > 0 && (
        <details>
          <summary className="cursor-pointer text-blue-700 dark:text-blue-300">
            {t('confirmations.seePreview', { count: items.length })}
          </summary>
          <ul className="mt-2 max-h-56 space-y-2 overflow-y-auto pr-1">
            {items.map(({ entity, plan }) => (
              <li key={`${entity.externalId}:${plan.actionIndex}`}>
                <p className="text-xs text-gray-500 dark:text-gray-400">
                  {t(`levels.${entity.level}`)} · <span className="break-all">{entity.name}</span>
                </p>
                <ActionPlanLine
                  type={plan.type}
                  change={plan.change}
                  holderReason={plan.holderReason}
                  targetName={plan.target.name}
                  onHolder={plan.target.externalId !== entity.externalId}
                  message={plan.message}
                  adAccountId={plan.target.adAccountId}
                />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

const RUN_TOAST = (ruleId: string) => `run-now-${ruleId}`;

/**
 * "Run now" asks first with what the run would change (ADR 0058); once confirmed it says how the run ended, waiting
 * for it a bounded time, or that the history will show it.
 */
/** Hidden from a viewer, who may not run rules. */
export function RunNowButton({ rule, size = 'md' }: { rule: Rule; size?: ButtonSize }) {
  const canEdit = useCan('editor');
  const words = useWords();
  const { t } = words;
  const errorText = useApiErrorText();
  const [asking, setAsking] = useState(false);
  const runNow = useRunRuleNow(rule.id);
  const navigate = useNavigate();

  const confirm = () => {
    setAsking(false);
    toast.loading(t('runOutcome.running', { name: rule.name }), { id: RUN_TOAST(rule.id) });
    runNow.mutate(undefined, {
      onSuccess: ({ run }) => {
        const id = RUN_TOAST(rule.id);
        if (!run) toast(t('runOutcome.stillRunning'), { id, icon: null });
        else if (run.status === 'failed') toast.error(runOutcomeText(run, words), { id });
        else {
          const text = t('runOutcome.done', { name: rule.name, outcome: runOutcomeText(run, words) });
          // Proposals are the run's work too: the way to them is in the outcome itself.
          if (runTally(run).waiting === 0) toast.success(text, { id });
          else
            toast.success(
              <span>
                {text} {/* The toaster may sit outside the router: the link navigates through the page's own. */}
                <a
                  href="/inbox"
                  onClick={(event) => {
                    event.preventDefault();
                    toast.dismiss(id);
                    void navigate('/inbox');
                  }}
                  className="font-medium text-blue-700 underline dark:text-blue-300"
                >
                  {t('runOutcome.openInbox')}
                </a>
              </span>,
              { id },
            );
        }
      },
      onError: (error) => toast.error(errorText(error, t('detail.runFailed')), { id: RUN_TOAST(rule.id) }),
    });
  };

  if (!canEdit) return null;
  return (
    <>
      <Button
        size={size}
        variant={size === 'sm' ? 'secondary' : 'primary'}
        loading={runNow.isPending}
        aria-label={size === 'sm' ? t('confirmations.runNow.label', { name: rule.name }) : undefined}
        onClick={() => setAsking(true)}
      >
        {!runNow.isPending && <Play aria-hidden="true" className="size-4" />}
        {t('detail.runNow')}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t('confirmations.runNow.title', { name: rule.name })}
        message={asking && <PreviewConsequences ruleId={rule.id} lead="runNow" mode={rule.mode} />}
        confirmLabel={t('confirmations.runNow.confirm')}
        cancelLabel={t('cancel')}
        closeLabel={t('close')}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

interface ActivateDialogProps {
  /** The rule about to be switched on; null: closed. */
  rule: Rule | null;
  busy: boolean;
  onConfirm: (rule: Rule) => void;
  onCancel: () => void;
}

/** Switching a rule on asks first: how often it will check, and what it would do on today's data. */
export function ActivateDialog({ rule, busy, onConfirm, onCancel }: ActivateDialogProps) {
  const { t, language } = useWords();
  const schedule =
    rule &&
    ('windows' in rule.schedule
      ? t('confirmations.activate.windows', { windows: windowsText(rule.schedule.windows, language) })
      : 'dailyAt' in rule.schedule
        ? t('confirmations.activate.daily', { time: rule.schedule.dailyAt })
        : t('confirmations.activate.every', { count: rule.schedule.everyMinutes }));
  return (
    <ConfirmDialog
      open={rule !== null}
      title={t('confirmations.activate.title', { name: rule?.name ?? '' })}
      message={
        rule && (
          <div className="space-y-2">
            <p>{schedule}</p>
            <PreviewConsequences ruleId={rule.id} lead="activate" mode={rule.mode} />
          </div>
        )
      }
      confirmLabel={t('confirmations.activate.confirm')}
      cancelLabel={t('cancel')}
      closeLabel={t('close')}
      busy={busy}
      onConfirm={() => rule && onConfirm(rule)}
      onCancel={onCancel}
    />
  );
}

/** A revert asks first, naming the entity and the value it goes back to (from → to). */
export function RevertDialog({
  action,
  busy,
  onConfirm,
  onCancel,
}: {
  action: RuleActionRecord | null;
  busy: boolean;
  onConfirm: (action: RuleActionRecord) => void;
  onCancel: () => void;
}) {
  const words = useWords();
  const { t } = words;
  const currency = useAdAccountCurrency(action?.target.adAccountId);
  const change = action?.change;
  const back =
    change &&
    (change.field === 'status'
      ? changeText({ field: 'status', from: change.to, to: change.from === 'ACTIVE' ? 'ACTIVE' : 'PAUSED' }, words)
      : changeText(
          { ...change, from: change.to, to: change.from, fromMinor: change.toMinor, toMinor: change.fromMinor },
          words,
          currency,
        ));
  return (
    <ConfirmDialog
      open={action !== null}
      title={t('confirmations.revert.title')}
      message={
        action &&
        t('confirmations.revert.message', {
          level: t(`levels.${action.target.level}`),
          name: action.target.name,
          change: back ?? '',
        })
      }
      confirmLabel={t('confirmations.revert.confirm')}
      cancelLabel={t('cancel')}
      closeLabel={t('close')}
      busy={busy}
      onConfirm={() => action && onConfirm(action)}
      onCancel={onCancel}
    />
  );
}
