import type { EntityTotals } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ChevronRight, Pause, Play, Wallet } from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { Link } from 'react-router';
import { parentTrail } from '../../../api/entities.ts';
import type { EntityRow } from '../api/types.ts';
import { allowedActions, useEntityWords, type EntityWords } from '../hooks/use-entity-words.ts';
import { METRIC_KEYS, type ColumnKey, type MetricKey, type Sort, type SortKey } from '../lib/columns.ts';
import type { DialogAction } from './action-dialog.tsx';
import { KnowsChips } from './knows-line.tsx';
import { MetricFigure, MetricValue } from './metric-value.tsx';
import { StatusLabel } from './status-badge.tsx';
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

/** Height of the header row, which stays at the top of the scroller. */
const HEADER_HEIGHT = 44;

/** The cells of a row, laid out as a flex row of fixed widths (the table's layout is not used: see `EntityTable`). */
const CELL = 'flex flex-none flex-col justify-center';

const cellWidth = (width: number, grow = false) => ({ width, flexGrow: grow ? 1 : 0 });

/**
 * The name column and the actions stay in place while the figures scroll sideways: moved by the scroller's
 * horizontal offset, which the scroll handler writes into two custom properties of the table. Not `position:
 * sticky`: a sticky cell is a composited layer of its own, two in every row drawn, and the compositor's work on
 * them every frame was most of a frame's time in software rendering (ADR 0180).
 */
const PIN_LEFT = 'relative [transform:translateX(var(--pin-left,0px))]';
const PIN_RIGHT = 'relative [transform:translateX(var(--pin-right,0px))]';

/**
 * The explorer's table, virtualised: only the rows in view (and a margin) are in the document, so 5,000 rows scroll
 * as smoothly as 50. It stays a table for assistive technology (its elements and roles, `aria-rowcount`,
 * `aria-rowindex`), but is laid out as blocks: the body is as tall as every row, each drawn row is placed with a
 * transform at its index × the row height and is its own layout and paint boundary (`contain: strict`), so a row
 * coming into view is laid out alone instead of the whole table again (ADR 0180). The name column and the actions
 * stay in place while the figures scroll sideways inside the card; the page itself never scrolls sideways.
 */
export function EntityTable(props: EntityTableProps) {
  const { items, columns, sort, onSort, days, totals, canEdit, selected } = props;
  const words = useEntityWords();
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
  const top = Math.floor(scrollTop / ROW_HEIGHT);
  const first = Math.max(0, top - OVERSCAN);
  const last = Math.min(items.length, top + visible + OVERSCAN);
  const shown = items.slice(first, last);

  const { hasMore, loadingMore, onLoadMore } = props;
  useEffect(() => {
    if (hasMore && !loadingMore && last >= items.length - LOAD_AHEAD) onLoadMore();
  }, [hasMore, loadingMore, last, items.length, onLoadMore]);

  const allSelected = useMemo(() => {
    const entities = items.filter((item) => item.kind === 'entity');
    return entities.length > 0 && entities.every((item) => selected.has(item.entity.id));
  }, [items, selected]);

  const width = WIDTHS.name + columns.reduce((sum, key) => sum + WIDTHS[key], 0) + (canEdit ? WIDTHS.actions : 0);
  // Only the row window changes the rows: a scroll within a row's height draws nothing new.
  // How far the table can scroll sideways: measured when the scroller or the table changes size, never while
  // scrolling.
  const table = useRef<HTMLTableElement>(null);
  const sideways = useRef({ max: 0, left: 0 });
  const pin = () => {
    const element = table.current;
    if (!element) return;
    const { max, left } = sideways.current;
    element.style.setProperty('--pin-left', `${left}px`);
    element.style.setProperty('--pin-right', `${Math.min(0, left - max)}px`);
  };
  useLayoutEffect(() => {
    const element = scroller.current;
    const inner = table.current;
    if (!element || !inner) return;
    const measure = () => {
      sideways.current = { max: Math.max(0, inner.offsetWidth - element.clientWidth), left: element.scrollLeft };
      pin();
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const left = event.currentTarget.scrollLeft;
    if (left !== sideways.current.left) {
      sideways.current.left = left;
      pin();
    }
    const next = event.currentTarget.scrollTop;
    setScrollTop((current) => (Math.floor(current / ROW_HEIGHT) === Math.floor(next / ROW_HEIGHT) ? current : next));
  };

  return (
    <div
      ref={scroller}
      className="relative max-h-[min(72vh,760px)] overflow-auto overscroll-contain"
      onScroll={onScroll}
      data-testid="entity-table-scroller"
    >
      <table
        ref={table}
        role="table"
        className="block text-sm"
        style={{ width: `max(100%, ${width}px)` }}
        aria-rowcount={items.length + 1 + totals.length}
      >
        <caption className="sr-only">{props.caption}</caption>
        <TableHead
          columns={columns}
          sort={sort}
          onSort={onSort}
          canEdit={canEdit}
          allSelected={allSelected}
          onSelectAll={props.onSelectAll}
        />
        <tbody role="rowgroup" className="relative block" style={{ height: items.length * ROW_HEIGHT }}>
          {shown.map((item, offset) => (
            <TableRow
              key={item.key}
              item={item}
              rowIndex={first + offset + 2}
              top={(first + offset) * ROW_HEIGHT}
              columns={columns}
              days={days}
              canEdit={canEdit}
              isSelected={item.kind === 'entity' && selected.has(item.entity.id)}
              zone={item.kind === 'entity' ? props.zones.get(item.entity.adAccountId) : undefined}
              words={words}
              onSelect={props.onSelect}
              onExpand={props.onExpand}
              onAct={props.onAct}
            />
          ))}
        </tbody>
        {totals.length > 0 && (
          <TableFoot totals={totals} columns={columns} days={days} canEdit={canEdit} firstIndex={items.length + 2} />
        )}
      </table>
    </div>
  );
}

interface TableHeadProps {
  columns: readonly ColumnKey[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  canEdit: boolean;
  allSelected: boolean;
  onSelectAll: (checked: boolean) => void;
}

/** The header row, sticking to the top of the scroller; memoised, so a scroll does not draw it again. */
const TableHead = memo(function TableHead({
  columns,
  sort,
  onSort,
  canEdit,
  allSelected,
  onSelectAll,
}: TableHeadProps) {
  const { t } = useEntityWords();
  const arrow = (key: SortKey) =>
    sort.key === key &&
    (sort.descending ? (
      <ArrowDown aria-hidden="true" className="size-3" />
    ) : (
      <ArrowUp aria-hidden="true" className="size-3" />
    ));
  const header = (key: ColumnKey, label: string) => (
    <th
      key={key}
      role="columnheader"
      scope="col"
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
      style={cellWidth(WIDTHS[key])}
      className={clsx(CELL, 'px-3 font-medium whitespace-nowrap', STICKY_BG, isMetric(key) && 'items-end')}
    >
      <button
        type="button"
        onClick={() => onSort(key)}
        className={clsx(
          'inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-blue-600',
          isMetric(key) && 'flex-row-reverse',
        )}
      >
        {label}
        {arrow(key)}
      </button>
    </th>
  );
  return (
    <thead role="rowgroup" className="sticky top-0 z-20 block text-left text-gray-600 dark:text-gray-400">
      <tr
        role="row"
        aria-rowindex={1}
        className="flex [&>th]:border-b [&>th]:border-gray-200 dark:[&>th]:border-gray-800"
        style={{ height: HEADER_HEIGHT }}
      >
        <th
          role="columnheader"
          scope="col"
          style={cellWidth(WIDTHS.name, true)}
          className={clsx(CELL, PIN_LEFT, 'z-20 px-3 font-medium', STICKY_BG)}
        >
          <div className="flex items-center gap-2">
            {canEdit && (
              <input
                type="checkbox"
                className="size-4"
                checked={allSelected}
                onChange={(event) => onSelectAll(event.target.checked)}
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
              {arrow('name')}
            </button>
          </div>
        </th>
        {columns.map((key) => header(key, t(`columns.${key}`)))}
        {canEdit && (
          <th
            role="columnheader"
            scope="col"
            style={cellWidth(WIDTHS.actions)}
            className={clsx(CELL, PIN_RIGHT, 'z-20 px-3 text-right font-medium', STICKY_BG)}
          >
            <span className="sr-only">{t('columns.actions')}</span>
          </th>
        )}
      </tr>
    </thead>
  );
});

interface TableFootProps {
  totals: readonly EntityTotals[];
  columns: readonly ColumnKey[];
  days: number;
  canEdit: boolean;
  /** The `aria-rowindex` of the first totals row. */
  firstIndex: number;
}

/** The totals, one row per currency, sticking to the bottom of the scroller; memoised like the header. */
const TableFoot = memo(function TableFoot({ totals, columns, days, canEdit, firstIndex }: TableFootProps) {
  const words = useEntityWords();
  const { t } = words;
  const FOOT = 'border-t border-gray-300 bg-gray-50 dark:border-gray-700 dark:bg-gray-950';
  return (
    <tfoot role="rowgroup" className="sticky bottom-0 z-20 block font-medium">
      {totals.map((total, index) => (
        <tr
          key={total.currency}
          role="row"
          aria-rowindex={firstIndex + index}
          className="flex"
          style={{ height: ROW_HEIGHT }}
        >
          <th
            role="rowheader"
            scope="row"
            style={cellWidth(WIDTHS.name, true)}
            className={clsx(CELL, PIN_LEFT, 'z-20 px-3 text-left', FOOT)}
          >
            <span className="block pl-9 text-gray-900 dark:text-gray-100">
              {t('totals.label', { currency: total.currency })}
            </span>
            <span className="block pl-9 text-xs font-normal text-gray-500 dark:text-gray-400">
              {t('rows.count', { count: total.count, shown: words.format.number(total.count, 0) })}
            </span>
          </th>
          {columns.map((key) => (
            <td key={key} role="cell" style={cellWidth(WIDTHS[key])} className={clsx(CELL, 'px-3 text-right', FOOT)}>
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
            <td role="cell" style={cellWidth(WIDTHS.actions)} className={clsx(CELL, PIN_RIGHT, 'z-20', FOOT)} />
          )}
        </tr>
      ))}
    </tfoot>
  );
});

interface TableRowProps {
  item: TreeItem;
  rowIndex: number;
  /** Where the row sits in the body, in pixels from its top. */
  top: number;
  columns: readonly ColumnKey[];
  days: number;
  canEdit: boolean;
  isSelected: boolean;
  zone: string | undefined;
  /** The table's words, shared by its rows. */
  words: EntityWords;
  onSelect: EntityTableProps['onSelect'];
  onExpand: EntityTableProps['onExpand'];
  onAct: EntityTableProps['onAct'];
}

/**
 * One row, memoised: while the table scrolls only the rows coming into view are drawn; those already drawn keep
 * their element as long as their entity, selection and columns are the same.
 */
const TableRow = memo(function TableRow(props: TableRowProps) {
  const { item, rowIndex, top, columns, days, canEdit, isSelected, zone, words, onSelect, onExpand, onAct } = props;
  const { t } = words;
  const nameCell = (item: TreeItem) => {
    const indent = { ...cellWidth(WIDTHS.name, true), paddingLeft: `${12 + item.depth * 20}px` };
    if (item.kind === 'note')
      return (
        <td role="cell" style={indent} className={clsx(CELL, PIN_LEFT, 'z-[1] px-3 text-sm text-gray-500', STICKY_BG)}>
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
      <th
        role="rowheader"
        scope="row"
        style={indent}
        className={clsx(CELL, PIN_LEFT, 'z-[1] pr-3 text-left font-normal', STICKY_BG)}
      >
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
            <KnowsChips entity={entity} compact timeZone={zone} words={words} />
          </div>
        </div>
      </th>
    );
  };

  const budgetCell = (entity: EntityRow) => {
    const budget = words.budget(entity);
    return (
      <td key="budget" role="cell" style={cellWidth(WIDTHS.budget)} className={clsx(CELL, 'px-3 text-sm')}>
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
      <td role="cell" style={cellWidth(WIDTHS.actions)} className={clsx(CELL, PIN_RIGHT, 'z-[1] px-2', STICKY_BG)}>
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
      role="row"
      aria-rowindex={rowIndex}
      // Placed by a transform and contained: a row drawn or removed lays out and paints itself alone.
      style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)`, contain: 'strict' }}
      className={clsx(
        'absolute top-0 left-0 flex w-full',
        '[&>*]:border-b [&>*]:border-gray-100 dark:[&>*]:border-gray-800',
        isSelected && '[&>*]:bg-blue-50 dark:[&>*]:bg-blue-950/40',
      )}
    >
      {nameCell(item)}
      {item.kind === 'note' ? (
        <td role="cell" className="flex-1" />
      ) : (
        <>
          {columns.map((key) =>
            key === 'status' ? (
              <td key={key} role="cell" style={cellWidth(WIDTHS[key])} className={clsx(CELL, 'items-start px-3')}>
                <StatusLabel status={item.entity.effectiveStatus} words={words} />
              </td>
            ) : key === 'budget' ? (
              budgetCell(item.entity)
            ) : (
              <td key={key} role="cell" style={cellWidth(WIDTHS[key])} className={clsx(CELL, 'px-3 text-right')}>
                <MetricFigure
                  metric={key}
                  value={item.entity.metrics[key]}
                  previous={item.entity.previous[key]}
                  currency={item.entity.currency}
                  days={days}
                  words={words}
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
