import type { Rule, RuleHold } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Play } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useCan } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useResumeHold, useRuleHolds } from '../api/rule-holds.ts';
import { useApiErrorText } from '../hooks/use-api-error-text.ts';
import { useWords } from '../hooks/use-words.ts';
import { Section } from './builder/controls.tsx';

const BADGE = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium';
const STATUS_COLOURS: Record<RuleHold['status'], string> = {
  scheduled: 'bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200',
  resumed: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  skipped: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200',
  failed: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  cancelled: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
};

/** Whether the rule pauses with a timed hold: its page then lists the holds. */
export const holdsPauses = (rule: Rule) =>
  rule.actions.some((action) => action.type === 'pause' && action.resumeAfter !== undefined);

/**
 * The rule's timed holds: each paused item, when it is resumed and how it went, and "Resume now" for a scheduled
 * one (editors; it asks first, since it changes a live ad).
 */
export function RuleHolds({ rule }: { rule: Rule }) {
  const words = useWords();
  const { t, language } = words;
  const canEdit = useCan('editor');
  const errorText = useApiErrorText();
  const holds = useRuleHolds(rule.id);
  const resume = useResumeHold(rule.id);
  const [toResume, setToResume] = useState<RuleHold | null>(null);
  if (!holdsPauses(rule) && !holds.data?.length) return null;
  const resuming = (hold: RuleHold) => resume.isPending && resume.variables.actionId === hold.actionId;

  const onResume = (hold: RuleHold) =>
    resume.mutate(hold, {
      onSuccess: ({ hold: after }) => {
        setToResume(null);
        if (after.status === 'resumed') toast.success(t('holds.resumed', { name: after.entity.name }));
        else toast.error(t(`holds.after.${after.status}`, { name: after.entity.name }));
      },
      onError: (error) => {
        setToResume(null);
        toast.error(errorText(error, t('holds.resumeFailed')));
      },
    });

  return (
    <Section title={t('holds.title')} description={t('holds.hint')}>
      {holds.isPending && <Spinner label={t('holds.loading')} />}
      {holds.data?.length === 0 && <p className="text-sm text-gray-600 dark:text-gray-400">{t('holds.none')}</p>}
      {holds.data && holds.data.length > 0 && (
        <ul className="space-y-2">
          {holds.data.map((hold) => (
            <li
              key={hold.actionId}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-200 p-3 dark:border-gray-700"
            >
              <div className="min-w-0">
                <p className="text-sm">
                  <span className="text-gray-500 dark:text-gray-400">{t(`levels.${hold.entity.level}`)} · </span>
                  <span className="font-medium break-all text-gray-900 dark:text-gray-100">{hold.entity.name}</span>
                </p>
                <p className="text-xs text-gray-600 dark:text-gray-400">
                  {hold.status === 'scheduled'
                    ? t('holds.resumesAt', { at: formatDateTime(hold.resumeAt, language) })
                    : t('holds.settledAt', { at: formatDateTime(hold.settledAt ?? hold.resumeAt, language) })}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <span className={clsx(BADGE, STATUS_COLOURS[hold.status])}>{t(`holds.status.${hold.status}`)}</span>
                {hold.status === 'scheduled' && canEdit && (
                  <Button
                    size="sm"
                    variant="secondary"
                    loading={resuming(hold)}
                    aria-label={t('holds.resumeLabel', { name: hold.entity.name })}
                    onClick={() => setToResume(hold)}
                  >
                    {!resuming(hold) && <Play aria-hidden="true" className="size-4" />}
                    {t('holds.resumeNow')}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={toResume !== null}
        title={t('confirmations.resumeHold.title')}
        message={
          toResume &&
          t('confirmations.resumeHold.message', {
            level: t(`levels.${toResume.entity.level}`),
            name: toResume.entity.name,
          })
        }
        confirmLabel={t('confirmations.resumeHold.confirm')}
        cancelLabel={t('cancel')}
        closeLabel={t('close')}
        busy={resume.isPending}
        onConfirm={() => toResume && onResume(toResume)}
        onCancel={() => setToResume(null)}
      />
    </Section>
  );
}
