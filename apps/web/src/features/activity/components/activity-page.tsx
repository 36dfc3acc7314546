import { useCan } from '../../../api/workspaces.ts';
import {
  ACTIVITY_LEVELS,
  ACTIVITY_TYPES,
  type ActivityLevel,
  type ActivityLog,
  type ActivityType,
} from '@adpilot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Download, Radio, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import {
  clearLogs,
  deleteLogs,
  downloadLogs,
  LOGS_PAGE_SIZE,
  LOGS_QUERY_KEY,
  logsQueryOptions,
  type LogFilterValues,
} from '../../../api/activity-logs.ts';
import { useAdAccounts } from '../../../api/ad-accounts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useLogStream, type LiveState } from '../hooks/use-log-stream.ts';
import { ActivityEntries } from './activity-entries.tsx';

interface FilterForm {
  level: ActivityLevel | '';
  type: ActivityType | '';
  adAccountId: string;
  from: string;
  to: string;
  search: string;
}

const EMPTY_FILTERS: FilterForm = { level: '', type: '', adAccountId: '', from: '', to: '', search: '' };

/** The form's values as API filters; the dates are the user's local days, sent as instants. */
function toFilters(form: FilterForm): LogFilterValues {
  const localDay = (day: string, end: boolean) =>
    day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : undefined;
  return {
    level: form.level || undefined,
    type: form.type || undefined,
    adAccountId: form.adAccountId || undefined,
    from: localDay(form.from, false),
    to: localDay(form.to, true),
    search: form.search.trim() || undefined,
  };
}

/** A From day after the To day is refused in the form, in Reports' words, before anything is asked of the server. */
function rangeIsBackwards(form: FilterForm): boolean {
  return form.from !== '' && form.to !== '' && form.from > form.to;
}

const selectClass =
  'h-10 rounded-md border border-gray-300 bg-white px-3 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';

function LiveBadge({ state }: { state: LiveState }) {
  const { t } = useTranslation('activity');
  if (state === 'off') return null;
  if (state === 'error')
    return (
      <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
        {t('live.error')}
      </p>
    );
  return (
    <p role="status" className="text-sm text-gray-600 dark:text-gray-400">
      {state === 'open' ? t('live.on') : t('live.connecting')}
    </p>
  );
}

export function ActivityPage() {
  const { t } = useTranslation('activity');
  const rangeErrorId = useId();
  const queryClient = useQueryClient();
  const accounts = useAdAccounts();

  const [form, setForm] = useState<FilterForm>(EMPTY_FILTERS);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [asOf, setAsOf] = useState<number | undefined>(undefined);
  const [live, setLive] = useState(false);
  const [liveEntries, setLiveEntries] = useState<ActivityLog[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<'delete' | 'clear' | null>(null);
  // Deleting and clearing are the owner's, and only of the clearable kinds (ADR 0094).
  const canClear = useCan('owner');

  // Typing in the search box asks the server once the user pauses.
  useEffect(() => {
    const timer = setTimeout(() => setForm((current) => ({ ...current, search })), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const backwards = rangeIsBackwards(form);
  const filters = useMemo(() => toFilters(form), [form]);
  const filtersKey = JSON.stringify(filters);
  useEffect(() => {
    setPage(1);
    setAsOf(undefined);
    setLiveEntries([]);
    setSelected(new Set());
  }, [filtersKey]);

  // Page 1 reads the present; later pages stay pinned to what page 1 saw, so new entries never shift them.
  const list = useQuery({
    ...logsQueryOptions({ ...filters, page, limit: LOGS_PAGE_SIZE, asOf: page > 1 ? asOf : undefined }),
    enabled: !backwards,
  });
  const answer = list.data;
  useEffect(() => {
    if (page === 1 && answer && !list.isPlaceholderData) setAsOf(answer.pagination.asOf);
  }, [answer, page, list.isPlaceholderData]);

  const onEntry = useCallback((log: ActivityLog) => {
    setLiveEntries((current) => (current.some((entry) => entry._id === log._id) ? current : [log, ...current]));
  }, []);
  const liveState = useLogStream({ enabled: live && !backwards, filters, after: asOf, onEntry });

  const pageRows = answer?.logs ?? [];
  const shownIds = new Set(pageRows.map((log) => log._id));
  const freshRows = page === 1 ? liveEntries.filter((log) => !shownIds.has(log._id)) : [];
  const rows = [...freshRows, ...pageRows];
  const total = (answer?.pagination.total ?? 0) + freshRows.length;
  const pages = Math.max(1, answer?.pagination.totalPages ?? 1);

  const refresh = () => {
    setLiveEntries([]);
    setSelected(new Set());
    setAsOf(undefined);
    setPage(1);
    return queryClient.invalidateQueries({ queryKey: LOGS_QUERY_KEY });
  };
  const removeMany = useMutation({
    mutationFn: () => deleteLogs([...selected]),
    onSuccess: async ({ deletedCount }) => {
      toast.success(t('delete.done', { count: deletedCount }));
      setConfirming(null);
      await refresh();
    },
    onError: () => toast.error(t('delete.failed')),
  });
  const clear = useMutation({
    mutationFn: () => clearLogs(filters),
    onSuccess: async ({ deletedCount }) => {
      toast.success(t('clear.done', { count: deletedCount }));
      setConfirming(null);
      await refresh();
    },
    onError: () => toast.error(t('clear.failed')),
  });
  const exportAs = useMutation({
    mutationFn: (format: 'csv' | 'json') => downloadLogs(format, filters),
    onError: () => toast.error(t('export.failed')),
  });

  const allSelected = rows.length > 0 && rows.every((log) => selected.has(log._id));
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(rows.map((log) => log._id)));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const set = <K extends keyof FilterForm>(key: K, value: FilterForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} description={t('description')} />

      <Card className="space-y-4 p-4">
        <div className="flex flex-wrap items-end gap-3" role="group" aria-label={t('filters.label')}>
          <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
            <span className="font-medium text-gray-700 dark:text-gray-300">{t('filters.search')}</span>
            <input
              type="search"
              value={search}
              maxLength={200}
              placeholder={t('filters.searchPlaceholder')}
              onChange={(event) => setSearch(event.target.value)}
              className={selectClass}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-gray-700 dark:text-gray-300">{t('filters.level')}</span>
            <select
              value={form.level}
              onChange={(event) => set('level', event.target.value as FilterForm['level'])}
              className={selectClass}
            >
              <option value="">{t('levels.all')}</option>
              {ACTIVITY_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {t(`levels.${level}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-gray-700 dark:text-gray-300">{t('filters.type')}</span>
            <select
              value={form.type}
              onChange={(event) => set('type', event.target.value as FilterForm['type'])}
              className={selectClass}
            >
              <option value="">{t('types.all')}</option>
              {ACTIVITY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`types.${type}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-gray-700 dark:text-gray-300">{t('filters.account')}</span>
            <select
              value={form.adAccountId}
              onChange={(event) => set('adAccountId', event.target.value)}
              className={selectClass}
            >
              <option value="">{t('filters.allAccounts')}</option>
              {(accounts.data ?? []).map((account) => (
                <option key={account.id} value={account.id}>
                  {account.facebook_account_name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-gray-700 dark:text-gray-300">{t('filters.from')}</span>
            <input
              type="date"
              value={form.from}
              onChange={(event) => set('from', event.target.value)}
              aria-invalid={backwards || undefined}
              aria-describedby={backwards ? rangeErrorId : undefined}
              className={clsx(selectClass, backwards && 'border-red-500 dark:border-red-400')}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-gray-700 dark:text-gray-300">{t('filters.to')}</span>
            <input
              type="date"
              value={form.to}
              onChange={(event) => set('to', event.target.value)}
              aria-invalid={backwards || undefined}
              aria-describedby={backwards ? rangeErrorId : undefined}
              className={clsx(selectClass, backwards && 'border-red-500 dark:border-red-400')}
            />
          </label>
          <Button
            variant="ghost"
            onClick={() => {
              setSearch('');
              setForm(EMPTY_FILTERS);
            }}
          >
            {t('filters.reset')}
          </Button>
        </div>
        {backwards && (
          <p id={rangeErrorId} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {t('common:dateRange.fromAfterTo')}
          </p>
        )}

        <div className="flex flex-wrap items-center gap-3">
          <Button variant={live ? 'primary' : 'secondary'} aria-pressed={live} onClick={() => setLive((on) => !on)}>
            <Radio aria-hidden="true" className="size-4" />
            {t('live.toggle')}
          </Button>
          <LiveBadge state={liveState} />
          <div className="ml-auto flex flex-wrap gap-2">
            <Button
              variant="secondary"
              loading={exportAs.isPending}
              disabled={backwards}
              onClick={() => exportAs.mutate('csv')}
            >
              <Download aria-hidden="true" className="size-4" />
              {t('export.csv')}
            </Button>
            <Button
              variant="secondary"
              loading={exportAs.isPending}
              disabled={backwards}
              onClick={() => exportAs.mutate('json')}
            >
              <Download aria-hidden="true" className="size-4" />
              {t('export.json')}
            </Button>
            {canClear ? (
              <>
                <Button variant="danger" disabled={selected.size === 0} onClick={() => setConfirming('delete')}>
                  <Trash2 aria-hidden="true" className="size-4" />
                  {t('delete.selected', { count: selected.size })}
                </Button>
                <Button variant="secondary" disabled={total === 0 || backwards} onClick={() => setConfirming('clear')}>
                  {t('clear.button')}
                </Button>
              </>
            ) : null}
          </div>
        </div>
      </Card>

      <Card className="overflow-x-auto">
        {backwards ? (
          <p className="p-8 text-center text-sm text-gray-500 dark:text-gray-400">{t('table.fixRange')}</p>
        ) : list.isError && !answer ? (
          <p role="alert" className="p-8 text-center text-sm text-red-600 dark:text-red-400">
            {t('table.error')}
          </p>
        ) : list.isPending ? (
          <p role="status" className="p-8 text-center text-sm text-gray-500 dark:text-gray-400">
            {t('table.loading')}
          </p>
        ) : rows.length === 0 ? (
          <p className="p-8 text-center text-sm text-gray-500 dark:text-gray-400">{t('table.empty')}</p>
        ) : (
          <ActivityEntries
            rows={rows}
            selected={selected}
            onToggle={toggle}
            onToggleAll={toggleAll}
            stale={list.isPlaceholderData}
          />
        )}
      </Card>

      <nav
        className="flex items-center justify-between gap-3"
        aria-label={t('pagination.summary', { page, pages, total })}
      >
        <p className="text-sm text-gray-600 dark:text-gray-400">{t('pagination.summary', { page, pages, total })}</p>
        <div className="flex gap-2">
          <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('pagination.previous')}
          </Button>
          <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {t('pagination.next')}
          </Button>
        </div>
      </nav>

      <ConfirmDialog
        open={confirming === 'delete'}
        title={t('delete.confirmTitle')}
        message={t('delete.confirmMessage', { count: selected.size })}
        confirmLabel={t('delete.confirm')}
        cancelLabel={t('cancel')}
        variant="danger"
        busy={removeMany.isPending}
        onConfirm={() => removeMany.mutate()}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={confirming === 'clear'}
        title={t('clear.confirmTitle')}
        message={t('clear.confirmMessage')}
        confirmLabel={t('clear.confirm')}
        cancelLabel={t('cancel')}
        variant="danger"
        busy={clear.isPending}
        onConfirm={() => clear.mutate()}
        onCancel={() => setConfirming(null)}
      />
    </div>
  );
}
