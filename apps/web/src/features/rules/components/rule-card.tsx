import { countConditions, type Rule } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { Clock, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { SECONDARY_LINK } from './link-styles.ts';
import { RunNowButton } from './rule-confirmations.tsx';

interface RuleCardProps {
  rule: Rule;
  toggling: boolean;
  onToggle: (rule: Rule) => void;
  onDelete: (rule: Rule) => void;
}

const BADGE = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium';

export function RuleCard({ rule, toggling, onToggle, onDelete }: RuleCardProps) {
  const { t, i18n } = useTranslation('rules');
  const nameId = useId();
  const path = `/rules/${rule.id}`;
  const canEdit = useCan('editor');

  return (
    <Card role="article" aria-labelledby={nameId} className="flex w-full flex-col p-5">
      <div className="mb-4 grow">
        <div className="flex items-start justify-between gap-3">
          <h3 id={nameId} className="text-lg font-semibold break-words text-gray-900 dark:text-gray-100">
            <Link to={path} className="hover:text-blue-700 dark:hover:text-blue-300">
              {rule.name}
            </Link>
          </h3>
          <span
            className={clsx(
              BADGE,
              'shrink-0',
              rule.isActive
                ? 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200'
                : 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
            )}
          >
            {rule.isActive ? t('card.active') : t('card.inactive')}
          </span>
        </div>
        {rule.description && (
          <p className="mt-2 text-sm break-words whitespace-pre-line text-gray-600 dark:text-gray-400">
            {rule.description}
          </p>
        )}
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-700 dark:text-gray-300">
          <span>{t('card.conditions', { count: countConditions(rule.conditions) })}</span>
          <span>{t('card.actions', { count: rule.actions.length })}</span>
          <span>{t(`builder.mode.${rule.mode}`)}</span>
        </p>
        {rule.lastTriggered && (
          <p className="mt-2 flex items-center gap-1.5 text-xs text-gray-500 dark:text-gray-400">
            <Clock aria-hidden="true" className="size-3.5" />
            {t('card.lastTriggered', { date: formatDateTime(rule.lastTriggered, i18n.language) })}
          </p>
        )}
      </div>
      {canEdit && (
        <div className="flex flex-wrap gap-2 border-t border-gray-100 pt-4 dark:border-gray-800">
          <Button
            size="sm"
            variant="secondary"
            loading={toggling}
            aria-label={
              rule.isActive
                ? t('card.deactivateLabel', { name: rule.name })
                : t('card.activateLabel', { name: rule.name })
            }
            onClick={() => onToggle(rule)}
          >
            {!toggling &&
              (rule.isActive ? (
                <PowerOff aria-hidden="true" className="size-4" />
              ) : (
                <Power aria-hidden="true" className="size-4" />
              ))}
            {rule.isActive ? t('card.deactivate') : t('card.activate')}
          </Button>
          <RunNowButton rule={rule} size="sm" />
          <Link to={`${path}/edit`} aria-label={t('card.editLabel', { name: rule.name })} className={SECONDARY_LINK}>
            <Pencil aria-hidden="true" className="size-4" />
            {t('card.edit')}
          </Link>
          <Button
            size="sm"
            variant="secondary"
            aria-label={t('card.deleteLabel', { name: rule.name })}
            onClick={() => onDelete(rule)}
          >
            <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
            {t('card.delete')}
          </Button>
        </div>
      )}
    </Card>
  );
}
