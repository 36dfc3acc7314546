import type { EntityTotals } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ChevronRight, Pause, Play, Wallet } from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import { Link } from 'react-router';
import { parentTrail } from '../../../api/entities.ts';
import type { EntityRow } from '../api/types.ts';
import { allowedActions, useEntityWords } from '../hooks/use-entity-words.ts';
import { METRIC_KEYS, type ColumnKey, type MetricKey, type Sort, type SortKey } from '../lib/columns.ts';
import type { DialogAction } from './action-dialog.tsx';
import { KnowsLine } from './knows-line.tsx';
import { MetricValue } from './metric-value.tsx';
import { StatusBadge } from './status-badge.tsx';
import type { TreeItem } from './tree.ts';

/** Every row is this tall, so the rows in view are known from the scroll position alone (virtualised). */
export const ROW_HEIGHT = 64;
/** Rows drawn beyond the visible ones on each side, so a quick scroll never shows a blank. */
const OVERSCAN = 12;
/** Rows drawn where the container has no height yet (first paint, tests). */
const FALLBACK_VISIBLE = 30;
/** How near the end of the loaded rows the next page is asked for. */
const LOAD_AHEAD = 40;

const WIDTHS: Record<ColumnKey | 'name' | 'actions', number> = {
  name: 340,
  status: 128,
  budget: 150,
  actions: 104,
  ...(Object.fromEntries(METRIC_KEYS.map((key) => [key, 108])) as Record<MetricKey, number>),
};

const isMetric = (key: ColumnKey): key is MetricKey => (METRIC_KEYS as readonly string[]).includes(key);

const STICKY_BG = 'bg-white dark:bg-gray-900';
const ICON_BUTTON =
  'inline-flex size-8 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 ' +
  'focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-gray-200 dark:hover:bg-gray-800';

export interface EntityTableProps {
  items: readonly TreeItem[];
  columns: readonly ColumnKey[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  /** The previous period's length, for the change's sentence. */
  days: number;
  totals: readonly EntityTotals[];
  canEdit: boolean;
  selected: ReadonlySet<string>;
  onSelect: (entity: EntityRow, checked: boolean) => void;
  onSelectAll: (checked: boolean) => void;
  onExpand: (entity: EntityRow) => void;
  onAct: (action: DialogAction, entity: EntityRow) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  caption: string;
  /** Each account's time zone, in which its rows' instants are written. */
  zones: ReadonlyMap<string, string>;
}

/**
 * The explorer's table, virtualised: only the rows in view (and a margin) are in the document, between two spacer
 * rows as tall as the rows above and below, so 5,000 rows scroll as smoothly as 50. The name column and the actions
 * stay in place while the figures scroll sideways inside the card; the page itself never scrolls sideways.
 */
export function EntityTable(props: EntityTableProps) {
  const { items, columns, sort, onSort, days, totals, canEdit, selected } = props;
  const words = useEntityWords();
  const { t } = words;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(0);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setHeight(element.clientHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const visible = height > 0 ? Math.ceil(height / ROW_HEIGHT) : FALLBACK_VISIBLE;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(items.length, Math.floor(scrollTop / ROW_HEIGHT) + visible + OVERSCAN);
  const shown = items.slice(first, last);

  const { hasMore, loadingMore, onLoadMore } = props;
  useEffect(() => {
    if (hasMore && !loadingMore && last >= items.length - LOAD_AHEAD) onLoadMore();
  }, [hasMore, loadingMore, last, items.length, onLoadMore]);

  const entities = items.filter((item) => item.kind === 'entity');
  const allSelected = entities.length > 0 && entities.every((item) => selected.has(item.entity.id));
  const span = columns.length + 1 + (canEdit ? 1 : 0);

  const header = (key: SortKey, label: string, className?: string) => (
    <th
      key={key}
      scope="col"
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
      className={clsx('sticky top-0 z-10 h-11 px-3 font-medium whitespace-nowrap', STICKY_BG, className)}
    >
      <button
        type="button"
        onClick={() => onSort(key)}
        className="inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {label}
        {sort.key === key &&
          (sort.descending ? (
            <ArrowDown aria-hidden="true" className="size-3" />
          ) : (
            <ArrowUp aria-hidden="true" className="size-3" />
          ))}
      </button>
    </th>
  );

  const width = WIDTHS.name + columns.reduce((sum, key) => sum + WIDTHS[key], 0) + (canEdit ? WIDTHS.actions : 0);

  return (
    <div
      ref={scroller}
      className="relative max-h-[min(72vh,760px)] overflow-auto overscroll-contain"
      onScroll={(event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop)}
      data-testid="entity-table-scroller"
    >
      <table
        className="table-fixed border-separate border-spacing-0 text-sm"
        style={{ width: `max(100%, ${width}px)` }}
        aria-rowcount={items.length + 1 + totals.length}
      >
        <caption className="sr-only">{props.caption}</caption>
        <colgroup>
          <col style={{ width: WIDTHS.name }} />
          {columns.map((key) => (
            <col key={key} style={{ width: WIDTHS[key] }} />
          ))}
          {canEdit && <col style={{ width: WIDTHS.actions }} />}
        </colgroup>
        <thead className="text-left text-gray-600 dark:text-gray-400">
          <tr aria-rowindex={1} className="[&>th]:border-b [&>th]:border-gray-200 dark:[&>th]:border-gray-800">
            <th scope="col" className={clsx('sticky top-0 left-0 z-20 h-11 px-3 font-medium', STICKY_BG)}>
              <div className="flex items-center gap-2">
                {canEdit && (
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={allSelected}
                    onChange={(event) => props.onSelectAll(event.target.checked)}
                    aria-label={t('rows.selectAll')}
                  />
                )}
                <button
                  type="button"
                  onClick={() => onSort('name')}
                  aria-label={t('sortBy', { column: t('columns.name') })}
                  className="inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  {t('columns.name')}
                  {sort.key === 'name' &&
                    (sort.descending ? (
                      <ArrowDown aria-hidden="true" className="size-3" />
                    ) : (
                      <ArrowUp aria-hidden="true" className="size-3" />
                    ))}
                </button>
              </div>
            </th>
            {columns.map((key) =>
              header(key, t(`columns.${key}`), isMetric(key) ? 'text-right [&>button]:flex-row-reverse' : undefined),
            )}
            {canEdit && (
              <th scope="col" className={clsx('sticky top-0 right-0 z-20 h-11 px-3 text-right font-medium', STICKY_BG)}>
                <span className="sr-only">{t('columns.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr aria-hidden="true" style={{ height: first * ROW_HEIGHT }}>
              <td colSpan={span} />
            </tr>
          )}
          {shown.map((item, offset) => (
            <TableRow
              key={item.key}
              item={item}
              rowIndex={first + offset + 2}
              columns={columns}
              days={days}
              canEdit={canEdit}
              isSelected={item.kind === 'entity' && selected.has(item.entity.id)}
              zone={item.kind === 'entity' ? props.zones.get(item.entity.adAccountId) : undefined}
              onSelect={props.onSelect}
              onExpand={props.onExpand}
              onAct={props.onAct}
            />
          ))}
          {last < items.length && (
            <tr aria-hidden="true" style={{ height: (items.length - last) * ROW_HEIGHT }}>
              <td colSpan={span} />
            </tr>
          )}
        </tbody>
        {totals.length > 0 && (
          <tfoot className="font-medium">
            {totals.map((total, index) => (
              <tr key={total.currency} aria-rowindex={items.length + 2 + index} style={{ height: ROW_HEIGHT }}>
                <th
                  scope="row"
                  className={clsx(
                    'sticky bottom-0 left-0 z-20 border-t border-gray-300 px-3 text-left dark:border-gray-700',
                    'bg-gray-50 dark:bg-gray-950',
                  )}
                >
                  <span className="block pl-9 text-gray-900 dark:text-gray-100">
                    {t('totals.label', { currency: total.currency })}
                  </span>
                  <span className="block pl-9 text-xs font-normal text-gray-500 dark:text-gray-400">
                    {t('rows.count', { count: total.count, shown: words.format.number(total.count, 0) })}
                  </span>
                </th>
                {columns.map((key) => (
                  <td
                    key={key}
                    className="sticky bottom-0 z-10 border-t border-gray-300 bg-gray-50 px-3 text-right dark:border-gray-700 dark:bg-gray-950"
                  >
                    {isMetric(key) ? (
                      <MetricValue
                        metric={key}
                        value={total.metrics[key]}
                        previous={total.previous[key]}
                        currency={total.currency}
                        days={days}
                      />
                    ) : null}
                  </td>
                ))}
                {canEdit && (
                  <td className="sticky right-0 bottom-0 z-20 border-t border-gray-300 bg-gray-50 dark:border-gray-700 dark:bg-gray-950" />
                )}
              </tr>
            ))}
          </tfoot>
        )}
      </table>
    </div>
  );
}

interface TableRowProps {
  item: TreeItem;
  rowIndex: number;
  columns: readonly ColumnKey[];
  days: number;
  canEdit: boolean;
  isSelected: boolean;
  zone: string | undefined;
  onSelect: EntityTableProps['onSelect'];
  onExpand: EntityTableProps['onExpand'];
  onAct: EntityTableProps['onAct'];
}

/**
 * One row, memoised: while the table scrolls only the rows coming into view are drawn; those already drawn keep
 * their element as long as their entity, selection and columns are the same.
 */
const TableRow = memo(function TableRow(props: TableRowProps) {
  const { item, rowIndex, columns, days, canEdit, isSelected, zone, onSelect, onExpand, onAct } = props;
  const words = useEntityWords();
  const { t } = words;
  const span = columns.length + 1 + (canEdit ? 1 : 0);
  const nameCell = (item: TreeItem) => {
    const indent = { paddingLeft: `${12 + item.depth * 20}px` };
    if (item.kind === 'note')
      return (
        <td style={indent} className={clsx('sticky left-0 z-[1] px-3 text-sm text-gray-500', STICKY_BG)}>
          <span className="pl-16">
            {item.note === 'loading'
              ? t('rows.loadingChildren')
              : item.note === 'empty'
                ? t('rows.noChildren')
                : t('rows.more')}
          </span>
        </td>
      );
    const { entity } = item;
    const trail = parentTrail(entity.parents);
    return (
      <th scope="row" style={indent} className={clsx('sticky left-0 z-[1] pr-3 text-left font-normal', STICKY_BG)}>
        <div className="flex items-center gap-1">
          {canEdit && (
            <input
              type="checkbox"
              className="size-4 shrink-0"
              checked={isSelected}
              onChange={(event) => onSelect(entity, event.target.checked)}
              aria-label={t('rows.select', { name: entity.name })}
            />
          )}
          {item.expandable ? (
            <button
              type="button"
              className={ICON_BUTTON}
              aria-expanded={item.expanded}
              aria-label={t(item.expanded ? 'rows.collapse' : 'rows.expand', { name: entity.name })}
              onClick={() => onExpand(entity)}
            >
              <ChevronRight
                aria-hidden="true"
                className={clsx('size-4 transition-transform', item.expanded && 'rotate-90')}
              />
            </button>
          ) : (
            <span className="size-8 shrink-0" />
          )}
          <div className="min-w-0 flex-1">
            <Link
              to={`/campaigns/${entity.id}`}
              className="block truncate font-medium text-blue-700 hover:underline dark:text-blue-300"
              title={entity.name}
            >
              {entity.name}
            </Link>
            {item.depth === 0 && trail.length > 0 && (
              <p className="truncate text-xs text-gray-500 dark:text-gray-400" title={trail.join(' › ')}>
                {trail.join(' › ')}
              </p>
            )}
            <KnowsLine entity={entity} compact timeZone={zone} />
          </div>
        </div>
      </th>
    );
  };

  const budgetCell = (entity: EntityRow) => {
    const budget = words.budget(entity);
    return (
      <td key="budget" className="px-3 text-sm">
        {budget.amount && <span className="block truncate text-gray-900 dark:text-gray-100">{budget.amount}</span>}
        {budget.holder && (
          <span
            className="block truncate text-xs text-gray-500 dark:text-gray-400"
            title={t('budget.heldByHint', { level: t(`level.${entity.budget.holderLevel ?? 'campaign'}`) })}
          >
            {budget.holder}
          </span>
        )}
      </td>
    );
  };

  const actionsCell = (entity: EntityRow) => {
    const { canPause, canResume, canBudget } = allowedActions(entity);
    return (
      <td className={clsx('sticky right-0 z-[1] px-2', STICKY_BG)}>
        <div className="flex justify-end gap-1">
          {canPause && (
            <button
              type="button"
              className={ICON_BUTTON}
              aria-label={t('rows.pause', { name: entity.name })}
              title={t('actionTypes.pause')}
              onClick={() => onAct('pause', entity)}
            >
              <Pause aria-hidden="true" className="size-4" />
            </button>
          )}
          {canResume && (
            <button
              type="button"
              className={ICON_BUTTON}
              aria-label={t('rows.resume', { name: entity.name })}
              title={t('actionTypes.resume')}
              onClick={() => onAct('resume', entity)}
            >
              <Play aria-hidden="true" className="size-4" />
            </button>
          )}
          {canBudget && (
            <button
              type="button"
              className={ICON_BUTTON}
              aria-label={t('rows.budget', { name: entity.name })}
              title={t('bulk.budget')}
              onClick={() => onAct('budget', entity)}
            >
              <Wallet aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
      </td>
    );
  };

  return (
    <tr
      aria-rowindex={rowIndex}
      style={{ height: ROW_HEIGHT }}
      className={clsx(
        '[&>*]:border-b [&>*]:border-gray-100 dark:[&>*]:border-gray-800',
        isSelected && '[&>*]:bg-blue-50 dark:[&>*]:bg-blue-950/40',
      )}
    >
      {nameCell(item)}
      {item.kind === 'note' ? (
        <td colSpan={span - 1} />
      ) : (
        <>
          {columns.map((key) =>
            key === 'status' ? (
              <td key={key} className="px-3">
                <StatusBadge status={item.entity.effectiveStatus} />
              </td>
            ) : key === 'budget' ? (
              budgetCell(item.entity)
            ) : (
              <td key={key} className="px-3 text-right">
                <MetricValue
                  metric={key}
                  value={item.entity.metrics[key]}
                  previous={item.entity.previous[key]}
                  currency={item.entity.currency}
                  days={days}
                />
              </td>
            ),
          )}
          {canEdit && actionsCell(item.entity)}
        </>
      )}
    </tr>
  );
});
