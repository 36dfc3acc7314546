import { clsx } from 'clsx';
import { ChevronRight, Pause, Play, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { parentTrail } from '../../../api/entities.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { EntityRow } from '../api/types.ts';
import { allowedActions, useEntityWords } from '../hooks/use-entity-words.ts';
import type { MetricKey } from '../lib/columns.ts';
import type { DialogAction } from './action-dialog.tsx';
import { KnowsLine } from './knows-line.tsx';
import { MetricValue } from './metric-value.tsx';
import { StatusBadge } from './status-badge.tsx';
import type { TreeItem } from './tree.ts';

/** The figures a card shows: what decides, in the space of a phone. */
const CARD_METRICS: readonly MetricKey[] = ['spend', 'results', 'cpa', 'roas'];

export interface EntityCardsProps {
  items: readonly TreeItem[];
  days: number;
  canEdit: boolean;
  selected: ReadonlySet<string>;
  onSelect: (entity: EntityRow, checked: boolean) => void;
  onExpand: (entity: EntityRow) => void;
  onAct: (action: DialogAction, entity: EntityRow) => void;
  /** How many are drawn; the rest come with "Show more" (the list grows a page at a time). */
  limit: number;
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
  /** Each account's time zone, in which its rows' instants are written. */
  zones: ReadonlyMap<string, string>;
}

/** At phone width the table becomes cards: name, status, budget, the key figures with their change, the actions. */
export function EntityCards(props: EntityCardsProps) {
  const { items, days, canEdit, selected, limit } = props;
  const words = useEntityWords();
  const { t } = words;
  const shown = items.slice(0, limit);

  return (
    <div>
      <ul className="divide-y divide-gray-200 dark:divide-gray-800">
        {shown.map((item) => {
          if (item.kind === 'note')
            return (
              <li
                key={item.key}
                className="px-4 py-2 text-sm text-gray-500"
                style={{ paddingLeft: 16 + item.depth * 16 }}
              >
                {item.note === 'loading'
                  ? t('rows.loadingChildren')
                  : item.note === 'empty'
                    ? t('rows.noChildren')
                    : t('rows.more')}
              </li>
            );
          const { entity } = item;
          const budget = words.budget(entity);
          const { canPause, canResume, canBudget } = allowedActions(entity);
          const trail = parentTrail(entity.parents);
          return (
            <li
              key={item.key}
              className={clsx(
                'space-y-3 px-4 py-3',
                item.depth > 0 && 'border-l-4 border-l-gray-200 dark:border-l-gray-700',
                selected.has(entity.id) && 'bg-blue-50 dark:bg-blue-950/40',
              )}
              style={{ marginLeft: item.depth * 12 }}
            >
              <article aria-label={entity.name} className="space-y-3">
                <div className="flex items-start gap-2">
                  {canEdit && (
                    <input
                      type="checkbox"
                      className="mt-1 size-5 shrink-0"
                      checked={selected.has(entity.id)}
                      onChange={(event) => props.onSelect(entity, event.target.checked)}
                      aria-label={t('rows.select', { name: entity.name })}
                    />
                  )}
                  <div className="min-w-0 flex-1">
                    <Link
                      to={`/campaigns/${entity.id}`}
                      className="font-medium break-words text-blue-700 hover:underline dark:text-blue-300"
                    >
                      {entity.name}
                    </Link>
                    {item.depth === 0 && trail.length > 0 && (
                      <p className="text-xs break-words text-gray-500 dark:text-gray-400">{trail.join(' › ')}</p>
                    )}
                    <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
                      <StatusBadge status={entity.effectiveStatus} />
                      {budget.amount && <span>{budget.amount}</span>}
                      {budget.holder && <span>{budget.holder}</span>}
                    </div>
                  </div>
                </div>
                <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                  {CARD_METRICS.map((key) => (
                    <div key={key} className="min-w-0">
                      <dt className="text-xs text-gray-500 dark:text-gray-400">{t(`columns.${key}`)}</dt>
                      <dd>
                        <MetricValue
                          metric={key}
                          value={entity.metrics[key]}
                          previous={entity.previous[key]}
                          currency={entity.currency}
                          days={days}
                          align="left"
                        />
                      </dd>
                    </div>
                  ))}
                </dl>
                <KnowsLine entity={entity} timeZone={props.zones.get(entity.adAccountId)} />
                {(item.expandable || (canEdit && (canPause || canResume || canBudget))) && (
                  <div className="flex flex-wrap gap-2">
                    {item.expandable && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-expanded={item.expanded}
                        aria-label={t('rows.childrenOf', {
                          children: t(`entity.children.${entity.level === 'campaign' ? 'campaign' : 'adset'}`),
                          name: entity.name,
                        })}
                        onClick={() => props.onExpand(entity)}
                      >
                        <ChevronRight
                          aria-hidden="true"
                          className={clsx('size-4 transition-transform', item.expanded && 'rotate-90')}
                        />
                        {t(`entity.children.${entity.level === 'campaign' ? 'campaign' : 'adset'}`)}
                      </Button>
                    )}
                    {canEdit && canPause && (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={t('rows.pause', { name: entity.name })}
                        onClick={() => props.onAct('pause', entity)}
                      >
                        <Pause aria-hidden="true" className="size-4" />
                        {t('actionTypes.pause')}
                      </Button>
                    )}
                    {canEdit && canResume && (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={t('rows.resume', { name: entity.name })}
                        onClick={() => props.onAct('resume', entity)}
                      >
                        <Play aria-hidden="true" className="size-4" />
                        {t('actionTypes.resume')}
                      </Button>
                    )}
                    {canEdit && canBudget && (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={t('rows.budget', { name: entity.name })}
                        onClick={() => props.onAct('budget', entity)}
                      >
                        <Wallet aria-hidden="true" className="size-4" />
                        {t('bulk.budget')}
                      </Button>
                    )}
                  </div>
                )}
              </article>
            </li>
          );
        })}
      </ul>
      {(items.length > limit || props.hasMore) && (
        <div className="border-t border-gray-200 p-4 dark:border-gray-800">
          <Button variant="secondary" className="w-full" loading={props.loadingMore} onClick={props.onMore}>
            {props.loadingMore ? t('rows.loadingMore') : t('rows.more')}
          </Button>
        </div>
      )}
    </div>
  );
}
