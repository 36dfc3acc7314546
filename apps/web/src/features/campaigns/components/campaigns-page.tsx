import type { EntityAccountWindow, EntityExportFormat } from '@adpilot/contracts';
import { useInfiniteQuery, useMutation, useQueries } from '@tanstack/react-query';
import { Download, Pause, Play, Search, Wallet, X } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useSearchParams } from 'react-router';
import { useAdAccounts } from '../../../api/ad-accounts.ts';
import { useCan } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { readStoredUser } from '../../../lib/session-storage.ts';
import { NARROW_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { childrenQueryOptions, downloadEntities, entitiesQueryOptions, type EntityFilters } from '../api/entities.ts';
import { childLevel, ENTITY_LEVEL_LIST, type EntityLevel, type EntityRow } from '../api/types.ts';
import { useEntityWords } from '../hooks/use-entity-words.ts';
import {
  METRIC_KEYS,
  nextSort,
  parseSort,
  readColumns,
  sortParam,
  storeColumns,
  type ColumnKey,
} from '../lib/columns.ts';
import { isStatusFilter, STATUS_FILTERS, type StatusFilter } from '../lib/status-filter.ts';
import {
  isWindowChoice,
  rangeDays,
  rangeProblem,
  settlingDays,
  WINDOW_CHOICES,
  windowQuery,
  type WindowChoice,
} from '../lib/windows.ts';
import { ActionDialog, type DialogAction } from './action-dialog.tsx';
import { ColumnChooser } from './column-chooser.tsx';
import { EntityCards } from './entity-cards.tsx';
import { EntityTable } from './entity-table.tsx';
import { MetricValue } from './metric-value.tsx';
import type { TreeItem } from './tree.ts';

const SELECT =
  'mt-1 h-10 w-full max-w-full rounded-lg border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';
const LABEL = 'block text-sm font-medium text-gray-700 dark:text-gray-300';
const CARDS_STEP = 50;
const SEARCH_DELAY_MS = 300;

function isLevel(value: unknown): value is EntityLevel {
  return typeof value === 'string' && (ENTITY_LEVEL_LIST as readonly string[]).includes(value);
}

/** The accounts' windows, told apart only where they differ: one zone, or each account's own. */
function zonesOf(accounts: readonly EntityAccountWindow[]): string[] {
  return [...new Set(accounts.map((account) => account.timezone))];
}

/**
 * /campaigns: the workspace's campaigns, ad sets and ads with their figures over a window and what AdPilot knows of
 * each, to decide on and act on (issue 28). The filters live in the address, so a view can be bookmarked or shared.
 */
export function CampaignsPage() {
  const words = useEntityWords();
  const { t } = words;
  // The signed-in user's id, as the session stored it: whose column choice this is.
  const userId = readStoredUser()?.id ?? 'signed-in';
  const canEdit = useCan('editor');
  const narrow = useMediaQuery(NARROW_QUERY);
  const accounts = useAdAccounts();
  const [params, setParams] = useSearchParams();

  const level: EntityLevel = isLevel(params.get('level')) ? (params.get('level') as EntityLevel) : 'campaign';
  const adAccountId = params.get('account') ?? '';
  const windowChoice: WindowChoice = isWindowChoice(params.get('window'))
    ? (params.get('window') as WindowChoice)
    : 'last_7d';
  const custom = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const statusFilter: StatusFilter = isStatusFilter(params.get('status'))
    ? (params.get('status') as StatusFilter)
    : 'all';
  const q = params.get('q') ?? '';
  const sort = parseSort(params.get('sort'));

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const [searchText, setSearchText] = useState(q);
  useEffect(() => {
    if (searchText.trim() === q) return;
    const timer = setTimeout(() => update({ q: searchText.trim() || null }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, q, update]);

  const [columns, setColumns] = useState<ColumnKey[]>(() => readColumns(userId));
  const chooseColumns = (next: ColumnKey[]) => {
    setColumns(next);
    storeColumns(userId, next);
  };

  const problem = windowChoice === 'custom' ? rangeProblem(custom) : null;
  const filters: EntityFilters = {
    level,
    sort: sortParam(sort),
    ...windowQuery(windowChoice, custom),
    ...(adAccountId ? { adAccountId } : {}),
    ...(STATUS_FILTERS[statusFilter] ? { status: STATUS_FILTERS[statusFilter] } : {}),
    ...(q ? { q } : {}),
  };
  const noAccounts = accounts.data?.length === 0;
  const list = useInfiniteQuery({ ...entitiesQueryOptions(filters), enabled: problem === null && !noAccounts });

  // Expanded rows: the level of each, so its children are asked for at the level below.
  const [expanded, setExpanded] = useState<Map<string, EntityLevel>>(new Map());
  const [selected, setSelected] = useState<Map<string, EntityRow>>(new Map());
  const [dialog, setDialog] = useState<{ action: DialogAction; entities: EntityRow[] } | null>(null);
  const [cardLimit, setCardLimit] = useState(CARDS_STEP);

  // A new view starts with nothing expanded or selected: the rows it held may not be in it.
  const viewKey = JSON.stringify({ level, adAccountId, windowChoice, custom, statusFilter, q });
  useEffect(() => {
    setExpanded(new Map());
    setSelected(new Map());
    setCardLimit(CARDS_STEP);
  }, [viewKey]);

  const expandedIds = [...expanded.keys()];
  const children = useQueries({
    queries: expandedIds.map((id) => childrenQueryOptions(id, childLevel(expanded.get(id)!) ?? 'ad', filters)),
  });
  const childrenOf = new Map(expandedIds.map((id, index) => [id, children[index]]));

  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const firstPage = list.data?.pages[0];
  const windows = firstPage?.accounts ?? [];
  const totals = firstPage?.totals ?? [];
  const days = windows[0] ? rangeDays(windows[0]) : 7;
  const settling = Math.max(0, ...windows.map(settlingDays));
  const zones = zonesOf(windows);
  const zoneOf = new Map(windows.map((account) => [account.adAccountId, account.timezone]));

  const items: TreeItem[] = [];
  const push = (entity: EntityRow, depth: number) => {
    const expandable = childLevel(entity.level) !== null;
    const isOpen = expanded.has(entity.id);
    items.push({ kind: 'entity', key: `${depth}:${entity.id}`, entity, depth, expandable, expanded: isOpen });
    if (!isOpen) return;
    const query = childrenOf.get(entity.id);
    if (!query?.data) {
      items.push({ kind: 'note', key: `loading:${entity.id}`, depth: depth + 1, note: 'loading', parentId: entity.id });
      return;
    }
    if (query.data.data.length === 0)
      items.push({ kind: 'note', key: `empty:${entity.id}`, depth: depth + 1, note: 'empty', parentId: entity.id });
    for (const child of query.data.data) push(child, depth + 1);
  };
  for (const row of rows) push(row, 0);

  const toggleExpand = (entity: EntityRow) =>
    setExpanded((current) => {
      const next = new Map(current);
      if (next.has(entity.id)) next.delete(entity.id);
      else next.set(entity.id, entity.level);
      return next;
    });
  const select = (entity: EntityRow, checked: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (checked) next.set(entity.id, entity);
      else next.delete(entity.id);
      return next;
    });
  const selectAll = (checked: boolean) =>
    setSelected(
      checked
        ? new Map(items.flatMap((item) => (item.kind === 'entity' ? [[item.entity.id, item.entity] as const] : [])))
        : new Map(),
    );

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const exportAs = useMutation({
    mutationFn: (format: EntityExportFormat) =>
      downloadEntities(
        format,
        filters,
        columns.filter((key) => (METRIC_KEYS as readonly string[]).includes(key)),
      ),
    onError: () => toast.error(t('export.failed')),
  });

  const selection = [...selected.values()];
  const act = (action: DialogAction, entities: EntityRow[]) => setDialog({ action, entities });

  return (
    <div className="min-w-0 space-y-6">
      <PageHeader title={t('title')} description={t('description')} />
      <ReadOnlyNotice text={t('readOnly')} />

      <Card>
        <CardContent className="grid grid-cols-2 gap-3 px-4 sm:px-6 md:grid-cols-3 xl:grid-cols-6">
          <div className="col-span-2 min-w-0 md:col-span-1">
            <label htmlFor="explorer-account" className={LABEL}>
              {t('filters.account')}
            </label>
            <select
              id="explorer-account"
              className={SELECT}
              value={adAccountId}
              onChange={(event) => update({ account: event.target.value || null })}
            >
              <option value="">{t('filters.allAccounts')}</option>
              {(accounts.data ?? []).map((account) => (
                <option key={account.id} value={account.id}>
                  {account.facebook_account_name} ({account.currency})
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0">
            <label htmlFor="explorer-level" className={LABEL}>
              {t('filters.level')}
            </label>
            <select
              id="explorer-level"
              className={SELECT}
              value={level}
              onChange={(event) => update({ level: event.target.value === 'campaign' ? null : event.target.value })}
            >
              {ENTITY_LEVEL_LIST.map((option) => (
                <option key={option} value={option}>
                  {t(`levels.${option}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0">
            <label htmlFor="explorer-status" className={LABEL}>
              {t('filters.status')}
            </label>
            <select
              id="explorer-status"
              className={SELECT}
              value={statusFilter}
              onChange={(event) => update({ status: event.target.value === 'all' ? null : event.target.value })}
            >
              {(Object.keys(STATUS_FILTERS) as StatusFilter[]).map((option) => (
                <option key={option} value={option}>
                  {t(`statusFilter.${option}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-span-2 min-w-0 md:col-span-1">
            <label htmlFor="explorer-window" className={LABEL}>
              {t('filters.window')}
            </label>
            <select
              id="explorer-window"
              className={SELECT}
              value={windowChoice}
              onChange={(event) => {
                const choice = event.target.value as WindowChoice;
                if (choice === 'custom' && windows[0])
                  update({ window: 'custom', from: custom.from || windows[0].from, to: custom.to || windows[0].to });
                else update({ window: choice === 'last_7d' ? null : choice, from: null, to: null });
              }}
            >
              {WINDOW_CHOICES.map((option) => (
                <option key={option} value={option}>
                  {t(`windows.${option}`)}
                </option>
              ))}
            </select>
          </div>
          {windowChoice === 'custom' && (
            <>
              <div className="min-w-0">
                <label htmlFor="explorer-from" className={LABEL}>
                  {t('filters.from')}
                </label>
                <Input
                  id="explorer-from"
                  type="date"
                  className="mt-1 w-full"
                  value={custom.from}
                  max={custom.to || undefined}
                  invalid={problem === 'fromAfterTo'}
                  onChange={(event) => update({ from: event.target.value })}
                />
              </div>
              <div className="min-w-0">
                <label htmlFor="explorer-to" className={LABEL}>
                  {t('filters.to')}
                </label>
                <Input
                  id="explorer-to"
                  type="date"
                  className="mt-1 w-full"
                  value={custom.to}
                  min={custom.from || undefined}
                  invalid={problem === 'tooLong'}
                  onChange={(event) => update({ to: event.target.value })}
                />
              </div>
            </>
          )}
          <div className="col-span-2 min-w-0 md:col-span-1 xl:col-span-2">
            <label htmlFor="explorer-search" className={LABEL}>
              {t('filters.search')}
            </label>
            <div className="relative mt-1">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400"
              />
              <Input
                id="explorer-search"
                type="search"
                className="w-full pl-9"
                value={searchText}
                placeholder={t('filters.searchPlaceholder')}
                onChange={(event) => setSearchText(event.target.value)}
              />
            </div>
          </div>
        </CardContent>
        {problem && problem !== 'missing' && (
          <p role="alert" className="px-6 pb-4 text-sm text-red-700 dark:text-red-400">
            {problem === 'fromAfterTo' ? t('filters.fromAfterTo') : t('filters.tooLong', { days: 400 })}
          </p>
        )}
      </Card>

      {noAccounts ? (
        <Card>
          <CardContent className="py-10 text-center text-gray-600 dark:text-gray-400">
            <p>{t('empty.noAccounts')}</p>
            <Link
              to="/ad-accounts"
              className="mt-2 inline-block font-medium text-blue-700 hover:underline dark:text-blue-300"
            >
              {t('empty.connect')}
            </Link>
          </CardContent>
        </Card>
      ) : list.isError ? (
        <Card>
          <CardContent className="flex flex-wrap items-center justify-between gap-4">
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {t('loadFailed')}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </CardContent>
        </Card>
      ) : !list.data ? (
        problem ? null : (
          <div className="flex justify-center py-16">
            <Spinner size="lg" label={t('loading')} />
          </div>
        )
      ) : (
        <Card className="min-w-0 overflow-hidden" aria-busy={list.isFetching}>
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 px-4 py-3 dark:border-gray-800">
            <div className="min-w-0 space-y-0.5 text-sm text-gray-600 dark:text-gray-400">
              <p className="font-medium text-gray-900 dark:text-gray-100">
                {t('rows.count', {
                  count: firstPage?.total ?? rows.length,
                  shown: words.format.number(firstPage?.total ?? rows.length, 0),
                })}
              </p>
              <p>
                {zones.length === 1 ? t('filters.zone', { zone: zones[0] }) : t('filters.zones')}
                {windows[0] && ` · ${words.format.dayRange(windows[0].from, windows[0].to)}`}
              </p>
              {settling > 0 && (
                <p className="flex flex-wrap items-center gap-1.5">
                  <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
                    {t('settling.badge')}
                  </span>
                  {t('settling.note', { count: settling })}
                </p>
              )}
            </div>
            <div className="flex flex-wrap gap-2">
              {!narrow && <ColumnChooser columns={columns} onChange={chooseColumns} />}
              <div className="flex gap-2" role="group" aria-label={t('export.label')}>
                {(['csv', 'xlsx'] as const).map((format) => (
                  <Button
                    key={format}
                    variant="secondary"
                    size="sm"
                    loading={exportAs.isPending && exportAs.variables === format}
                    disabled={exportAs.isPending || rows.length === 0}
                    onClick={() => exportAs.mutate(format)}
                  >
                    <Download aria-hidden="true" className="size-4" />
                    {t(`export.${format}`)}
                  </Button>
                ))}
              </div>
            </div>
          </div>

          {canEdit && selection.length > 0 && (
            <div
              role="region"
              aria-label={t('bulk.label')}
              className="flex flex-wrap items-center gap-2 border-b border-blue-200 bg-blue-50 px-4 py-2 dark:border-blue-900 dark:bg-blue-950/50"
            >
              <span className="text-sm font-medium text-blue-900 dark:text-blue-100">
                {t('bulk.selected', { count: selection.length })}
              </span>
              <Button size="sm" variant="secondary" onClick={() => act('pause', selection)}>
                <Pause aria-hidden="true" className="size-4" />
                {t('bulk.pause')}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => act('resume', selection)}>
                <Play aria-hidden="true" className="size-4" />
                {t('bulk.resume')}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => act('budget', selection)}>
                <Wallet aria-hidden="true" className="size-4" />
                {t('bulk.budget')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setSelected(new Map())}>
                <X aria-hidden="true" className="size-4" />
                {t('bulk.clear')}
              </Button>
            </div>
          )}

          {rows.length === 0 ? (
            <p className="px-4 py-10 text-center text-sm text-gray-600 dark:text-gray-400">
              {q || statusFilter !== 'all' ? t('empty.noRows') : t('empty.noRowsAtAll')}
            </p>
          ) : narrow ? (
            <>
              <EntityCards
                items={items}
                days={days}
                canEdit={canEdit}
                selected={new Set(selected.keys())}
                onSelect={select}
                onExpand={toggleExpand}
                onAct={(action, entity) => act(action, [entity])}
                limit={cardLimit}
                hasMore={Boolean(hasNextPage)}
                loadingMore={isFetchingNextPage}
                zones={zoneOf}
                onMore={() => {
                  setCardLimit((limit) => limit + CARDS_STEP);
                  if (items.length <= cardLimit + CARDS_STEP) loadMore();
                }}
              />
              {totals.length > 0 && (
                <div className="space-y-3 border-t border-gray-300 bg-gray-50 px-4 py-3 text-sm dark:border-gray-700 dark:bg-gray-950">
                  {totals.map((total) => (
                    <section key={total.currency} aria-label={t('totals.label', { currency: total.currency })}>
                      <h3 className="font-medium text-gray-900 dark:text-gray-100">
                        {t('totals.label', { currency: total.currency })} ·{' '}
                        {t('rows.count', { count: total.count, shown: words.format.number(total.count, 0) })}
                      </h3>
                      <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1">
                        {(['spend', 'results', 'cpa', 'roas'] as const).map((key) => (
                          <div key={key} className="min-w-0">
                            <dt className="text-xs text-gray-500 dark:text-gray-400">{t(`columns.${key}`)}</dt>
                            <dd>
                              <MetricValue
                                metric={key}
                                value={total.metrics[key]}
                                previous={total.previous[key]}
                                currency={total.currency}
                                days={days}
                                align="left"
                              />
                            </dd>
                          </div>
                        ))}
                      </dl>
                    </section>
                  ))}
                </div>
              )}
            </>
          ) : (
            <EntityTable
              items={items}
              columns={columns}
              sort={sort}
              onSort={(key) => update({ sort: sortParam(nextSort(sort, key)) })}
              days={days}
              totals={totals}
              canEdit={canEdit}
              selected={new Set(selected.keys())}
              onSelect={select}
              onSelectAll={selectAll}
              onExpand={toggleExpand}
              onAct={(action, entity) => act(action, [entity])}
              hasMore={Boolean(hasNextPage)}
              loadingMore={isFetchingNextPage}
              onLoadMore={loadMore}
              caption={t('title')}
              zones={zoneOf}
            />
          )}
          {totals.length > 1 && (
            <p className="px-4 py-2 text-xs text-gray-500 dark:text-gray-400">{t('totals.caption')}</p>
          )}
        </Card>
      )}

      <ActionDialog
        action={dialog?.action ?? null}
        entities={dialog?.entities ?? []}
        onClose={() => setDialog(null)}
        onDone={() => setSelected(new Map())}
      />
    </div>
  );
}
