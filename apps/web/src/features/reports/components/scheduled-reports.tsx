import type { ReportSchedule } from '@adpilot/contracts';
import { CalendarClock, Plus } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useAdAccounts } from '../../../api/ad-accounts.ts';
import { useCan } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useFormat } from '../../../lib/format.ts';
import {
  previewReport,
  useDeleteReportSchedule,
  useReportSchedules,
  useSendReportNow,
} from '../api/report-schedules.ts';
import { useScheduleErrorText, useScheduleName } from '../hooks/use-schedule-words.ts';
import { deliveryOutcomes, reachedAnyone } from '../lib/delivery-outcomes.ts';
import { lastFullPeriod } from '../lib/report-period.ts';
import { ScheduleForm } from './schedule-form.tsx';
import { ScheduleItem } from './schedule-item.tsx';

type Editing = { schedule: ReportSchedule | null } | null;

/** The Reports page's scheduled reports: the list for everyone, the changes for editors and up. */
export function ScheduledReports() {
  const { t } = useTranslation('reports');
  const format = useFormat();
  const canEdit = useCan('editor');
  const schedules = useReportSchedules();
  const accounts = useAdAccounts();
  const name = useScheduleName();
  const errorText = useScheduleErrorText();
  const [editing, setEditing] = useState<Editing>(null);
  const [toSend, setToSend] = useState<ReportSchedule | null>(null);
  const [toDelete, setToDelete] = useState<ReportSchedule | null>(null);
  const send = useSendReportNow();
  const remove = useDeleteReportSchedule();
  const [previewing, setPreviewing] = useState<string | null>(null);

  const sendPeriod = toSend && lastFullPeriod(toSend.frequency, toSend.timeZone);

  const confirmSend = () => {
    if (!toSend) return;
    send.mutate(toSend, {
      onSuccess: (delivery) => {
        setToSend(null);
        const period = format.dayRange(delivery.periodStart, delivery.periodEnd);
        const groups = deliveryOutcomes(delivery);
        if (delivery.status === 'sent' && groups.every((group) => group.outcome === 'sent')) {
          toast.success(t('schedules.toast.sent', { period, count: delivery.recipients.length }));
          return;
        }
        // Each address in words: sent, asked to confirm, waiting for confirmation, unsubscribed, limit reached.
        const text = (
          <div>
            <p>{t('schedules.toast.outcomesTitle', { period })}</p>
            <ul className="mt-1 list-disc pl-4">
              {groups.map(({ outcome, addresses }) => (
                <li key={outcome}>
                  {t(`schedules.toast.outcomes.${outcome}`, {
                    addresses: addresses.join(', '),
                  })}
                </li>
              ))}
            </ul>
            {delivery.status === 'failed' && <p className="mt-1">{t('schedules.toast.notSent', { period })}</p>}
          </div>
        );
        // Long enough to read a line per outcome.
        if (reachedAnyone(groups) && delivery.status === 'sent') toast.success(text, { duration: 10_000 });
        else toast.error(text, { duration: 10_000 });
      },
      onError: (error) => {
        setToSend(null);
        toast.error(errorText(error, t('schedules.toast.sendFailed')));
      },
    });
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete, {
      onSuccess: () => {
        setToDelete(null);
        toast.success(t('schedules.toast.deleted'));
      },
      onError: (error) => {
        setToDelete(null);
        toast.error(errorText(error, t('schedules.toast.deleteFailed')));
      },
    });
  };

  const preview = (schedule: ReportSchedule) => {
    setPreviewing(schedule.id);
    previewReport(schedule)
      // The file's answer carries no envelope to read a reason from.
      .catch(() => toast.error(t('schedules.toast.previewFailed')))
      .finally(() => setPreviewing(null));
  };

  const renderList = () => {
    if (schedules.isPending)
      return (
        <div className="flex justify-center py-8">
          <Spinner label={t('schedules.loading')} />
        </div>
      );
    if (schedules.isError)
      return (
        <div className="flex flex-wrap items-center justify-between gap-4">
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {t('schedules.loadFailed')}
          </p>
          <Button variant="secondary" size="sm" onClick={() => void schedules.refetch()}>
            {t('schedules.retry')}
          </Button>
        </div>
      );
    if (schedules.data.length === 0)
      return (
        <div className="py-6 text-center text-sm text-gray-600 dark:text-gray-400">
          <CalendarClock aria-hidden="true" className="mx-auto mb-2 size-8 text-gray-400" />
          <p>{canEdit ? t('schedules.empty') : t('schedules.emptyViewer')}</p>
        </div>
      );
    return (
      <ul aria-label={t('schedules.list')} className="divide-y divide-gray-100 dark:divide-gray-800">
        {schedules.data.map((schedule) => (
          <ScheduleItem
            key={schedule.id}
            schedule={schedule}
            accounts={accounts.data}
            actions={
              canEdit
                ? {
                    onEdit: () => setEditing({ schedule }),
                    onDelete: () => setToDelete(schedule),
                    onSend: () => setToSend(schedule),
                  }
                : null
            }
            onPreview={() => preview(schedule)}
            previewing={previewing === schedule.id}
          />
        ))}
      </ul>
    );
  };

  return (
    <Card>
      <CardHeader className="flex flex-wrap items-start justify-between gap-3 px-4 sm:px-6">
        <div className="min-w-0 flex-1 basis-64">
          <CardTitle>{t('schedules.title')}</CardTitle>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('schedules.description')}</p>
        </div>
        {canEdit && (
          <Button size="sm" onClick={() => setEditing({ schedule: null })}>
            <Plus aria-hidden="true" className="size-4" />
            {t('schedules.new')}
          </Button>
        )}
      </CardHeader>
      <CardContent className="space-y-4 px-4 sm:px-6">
        <ReadOnlyNotice />
        {renderList()}
      </CardContent>

      {editing && (
        <ScheduleForm schedule={editing.schedule} accounts={accounts.data ?? []} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        open={toSend !== null}
        title={t('schedules.confirmSend.title')}
        message={
          toSend &&
          sendPeriod &&
          t('schedules.confirmSend.message', {
            period: format.dayRange(sendPeriod.start, sendPeriod.end),
            count: toSend.recipients.length,
          })
        }
        confirmLabel={t('schedules.confirmSend.confirm')}
        cancelLabel={t('schedules.form.cancel')}
        closeLabel={t('schedules.form.close')}
        busy={send.isPending}
        onConfirm={confirmSend}
        onCancel={() => setToSend(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        variant="danger"
        title={t('schedules.confirmDelete.title')}
        message={toDelete && t('schedules.confirmDelete.message', { name: name(toDelete) })}
        confirmLabel={t('schedules.confirmDelete.confirm')}
        cancelLabel={t('schedules.form.cancel')}
        closeLabel={t('schedules.form.close')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </Card>
  );
}
