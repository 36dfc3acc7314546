import type { AdAccount, ReportSchedule } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Eye, Pencil, Send, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useFormat } from '../../../lib/format.ts';
import { useScheduleName } from '../hooks/use-schedule-words.ts';

export interface ScheduleActions {
  onEdit: () => void;
  onDelete: () => void;
  onSend: () => void;
}

interface ScheduleItemProps {
  schedule: ReportSchedule;
  accounts: AdAccount[] | undefined;
  /** Null for a reader who may not change schedules: only the preview, which changes nothing, is offered. */
  actions: ScheduleActions | null;
  onPreview: () => void;
  previewing: boolean;
}

const termClass = 'text-xs font-medium text-gray-500 dark:text-gray-400';
const valueClass = 'mt-0.5 text-sm text-gray-900 dark:text-gray-100';

/** One schedule: how often, in which language, to whom, for which accounts, when next and how the last went. */
export function ScheduleItem({ schedule, accounts, actions, onPreview, previewing }: ScheduleItemProps) {
  const { t } = useTranslation('reports');
  const format = useFormat();
  const name = useScheduleName()(schedule);
  const headingId = useId();
  const last = schedule.lastDelivery;

  const accountNames =
    schedule.adAccountIds === null
      ? [t('schedules.allAccounts')]
      : schedule.adAccountIds.map(
          (id) => accounts?.find((account) => account.id === id)?.facebook_account_name ?? t('schedules.goneAccount'),
        );

  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <article aria-labelledby={headingId}>
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h3 id={headingId} className="font-semibold text-gray-900 dark:text-gray-100">
            {t('schedules.heading', {
              frequency: t(`schedules.frequency.${schedule.frequency}`),
              language: t(`schedules.languageName.${schedule.language}`),
            })}
          </h3>
          <span className="text-xs text-gray-600 dark:text-gray-400">
            {t(`schedules.frequencyHint.${schedule.frequency}`)}
          </span>
        </div>
        <dl className="mt-3 grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.3fr)]">
          <div className="min-w-0">
            <dt className={termClass}>
              {t('schedules.fields.recipients')} ({t('schedules.recipientCount', { count: schedule.recipients.length })}
              )
            </dt>
            {schedule.recipients.map((address) => (
              <dd key={address} className={clsx(valueClass, 'wrap-anywhere')}>
                {address}
              </dd>
            ))}
          </div>
          <div className="min-w-0">
            <dt className={termClass}>{t('schedules.fields.accounts')}</dt>
            <dd className={clsx(valueClass, 'wrap-anywhere')}>{accountNames.join(', ')}</dd>
          </div>
          <div className="min-w-0">
            <dt className={termClass}>{t('schedules.fields.nextDue')}</dt>
            <dd className={valueClass}>
              <time dateTime={schedule.nextDueAt}>
                {format.dateTime(schedule.nextDueAt, { timeZone: schedule.timeZone })}
              </time>
            </dd>
          </div>
          <div className="min-w-0">
            <dt className={termClass}>{t('schedules.fields.lastDelivery')}</dt>
            <dd className={valueClass}>
              {last ? (
                <>
                  <span
                    className={clsx(
                      'font-medium',
                      last.status === 'sent' ? 'text-green-700 dark:text-green-400' : 'text-red-600 dark:text-red-400',
                    )}
                  >
                    {t(`schedules.delivery.${last.status}`, { date: format.dateTime(last.at) })}
                  </span>{' '}
                  <span className="text-gray-600 dark:text-gray-400">
                    {t('schedules.delivery.period', { period: format.dayRange(last.periodStart, last.periodEnd) })}
                  </span>
                </>
              ) : (
                <span className="text-gray-600 dark:text-gray-400">{t('schedules.delivery.none')}</span>
              )}
            </dd>
          </div>
        </dl>
        <div className="mt-3 flex flex-wrap gap-2">
          {actions && (
            <Button
              size="sm"
              variant="secondary"
              aria-label={t('schedules.actions.sendLabel', { name })}
              onClick={actions.onSend}
            >
              <Send aria-hidden="true" className="size-4" />
              {t('schedules.actions.send')}
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            aria-label={t('schedules.actions.previewLabel', { name })}
            loading={previewing}
            onClick={onPreview}
          >
            {!previewing && <Eye aria-hidden="true" className="size-4" />}
            {t('schedules.actions.preview')}
          </Button>
          {actions && (
            <>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('schedules.actions.editLabel', { name })}
                onClick={actions.onEdit}
              >
                <Pencil aria-hidden="true" className="size-4" />
                {t('schedules.actions.edit')}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('schedules.actions.deleteLabel', { name })}
                onClick={actions.onDelete}
              >
                <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
                {t('schedules.actions.delete')}
              </Button>
            </>
          )}
        </div>
      </article>
    </li>
  );
}
