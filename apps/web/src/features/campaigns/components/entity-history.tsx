import type { EntityHistoryItem } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useRevertAction } from '../api/entities.ts';
import { useEntityWords } from '../hooks/use-entity-words.ts';
import { runHref } from './knows-line.tsx';

const KIND_TONES: Record<EntityHistoryItem['kind'], string> = {
  rule_action: 'bg-purple-100 text-purple-800 dark:bg-purple-900/50 dark:text-purple-200',
  manual_action: 'bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200',
  external_change: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100',
  proposal: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
};

/** The entity's history, newest first: rules' actions, changes by hand, changes made outside AdPilot, proposals. */
export function EntityHistory({
  items,
  currency,
  timeZone,
  canEdit,
}: {
  items: readonly EntityHistoryItem[];
  currency: string;
  /** The account's zone, in which the instants are written. */
  timeZone: string;
  canEdit: boolean;
}) {
  const words = useEntityWords();
  const { t, format } = words;
  const revert = useRevertAction();
  const serverMessage = useServerMessage();
  const [asked, setAsked] = useState<EntityHistoryItem | null>(null);

  const value = (raw: string | number | null) =>
    raw === null ? '—' : typeof raw === 'number' ? format.money(raw, currency) : words.status(raw);
  const action = (item: EntityHistoryItem) =>
    item.type ? t(`actionTypes.${item.type}`, { defaultValue: item.type }) : '';
  const line = (item: EntityHistoryItem) => {
    const actor = item.actor.name ?? (item.kind === 'external_change' ? t('someone') : '');
    const field = item.field ? t(`fields.${item.field}`, { defaultValue: item.field }) : '';
    return t(`historyLine.${item.kind}`, { rule: actor, actor, action: action(item), field });
  };

  if (items.length === 0) return <p className="text-sm text-gray-600 dark:text-gray-400">{t('entity.historyEmpty')}</p>;
  return (
    <>
      <ol className="divide-y divide-gray-200 dark:divide-gray-800">
        {items.map((item) => {
          const run = item.kind === 'rule_action' || item.kind === 'proposal' ? runHref(item.ruleId, item.runId) : null;
          return (
            <li key={item.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start">
              <div className="min-w-0 flex-1 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className={clsx('rounded-full px-2 py-0.5 text-xs font-medium', KIND_TONES[item.kind])}>
                    {t(`historyKinds.${item.kind}`)}
                  </span>
                  <span className="font-medium break-words text-gray-900 dark:text-gray-100">{line(item)}</span>
                </p>
                {(item.from !== null || item.to !== null) && (
                  <p className="text-sm text-gray-700 tabular-nums dark:text-gray-300">
                    {value(item.from)} → {value(item.to)}
                  </p>
                )}
                <p className="flex flex-wrap gap-x-3 text-xs text-gray-500 dark:text-gray-400">
                  <time dateTime={item.at}>{format.dateTime(item.at, { timeZone })}</time>
                  {item.status && <span>{t(`historyStatus.${item.status}`, { defaultValue: item.status })}</span>}
                  {run && (
                    <Link to={run} className="text-blue-700 hover:underline dark:text-blue-300">
                      {t('entity.openRun')}
                    </Link>
                  )}
                </p>
              </div>
              {canEdit && item.revertible && item.actionId && (
                <Button size="sm" variant="secondary" onClick={() => setAsked(item)}>
                  <Undo2 aria-hidden="true" className="size-4" />
                  {t('history.revert')}
                </Button>
              )}
            </li>
          );
        })}
      </ol>
      <ConfirmDialog
        open={asked !== null}
        title={t('history.revertTitle')}
        message={asked ? `${line(asked)}: ${value(asked.to)} → ${value(asked.from)}` : ''}
        confirmLabel={t('history.revertConfirm')}
        cancelLabel={t('dialog.cancel')}
        closeLabel={t('dialog.close')}
        busy={revert.isPending}
        onCancel={() => setAsked(null)}
        onConfirm={() =>
          asked?.actionId &&
          revert.mutate(asked.actionId, {
            onSuccess: () => {
              setAsked(null);
              toast.success(t('history.reverted'));
            },
            onError: (error) => {
              setAsked(null);
              toast.error(serverMessage(error, t('history.revertFailed')));
            },
          })
        }
      />
    </>
  );
}
