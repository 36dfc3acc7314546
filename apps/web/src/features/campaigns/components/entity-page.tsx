import { useQuery } from '@tanstack/react-query';
import { ChevronRight, Pause, Play, Wallet } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { childrenQueryOptions, entityQueryOptions } from '../api/entities.ts';
import { childLevel, type EntityDetail } from '../api/types.ts';
import { allowedActions, useEntityWords } from '../hooks/use-entity-words.ts';
import { CHART_METRICS, type ChartMetric } from '../lib/chart-metrics.ts';
import { METRIC_KEYS } from '../lib/columns.ts';
import {
  isWindowChoice,
  rangeDays,
  settlingDays,
  WINDOW_CHOICES,
  windowQuery,
  type WindowChoice,
} from '../lib/windows.ts';
import { ActionDialog, type DialogAction } from './action-dialog.tsx';
import { EntityHistory } from './entity-history.tsx';
import { KnowsLine } from './knows-line.tsx';
import { MetricValue } from './metric-value.tsx';
import { StatusBadge } from './status-badge.tsx';

// recharts is large: the chart is its own chunk, as on the dashboard and Reports.
const EntityChart = lazy(() => import('./entity-chart.tsx').then((module) => ({ default: module.EntityChart })));

const SELECT =
  'h-10 max-w-full rounded-lg border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';
const CRUMB = 'text-blue-700 hover:underline dark:text-blue-300';

function Breadcrumbs({ entity }: { entity: EntityDetail }) {
  const { t } = useEntityWords();
  const crumbs: { to: string; label: string }[] = [
    { to: '/campaigns', label: t('entity.all') },
    { to: `/campaigns?account=${entity.adAccountId}`, label: entity.account.name },
  ];
  if (entity.parents.campaign)
    crumbs.push({ to: `/campaigns/${entity.parents.campaign.id}`, label: entity.parents.campaign.name });
  if (entity.parents.adSet)
    crumbs.push({ to: `/campaigns/${entity.parents.adSet.id}`, label: entity.parents.adSet.name });
  return (
    <nav aria-label={t('entity.breadcrumbs')}>
      <ol className="flex flex-wrap items-center gap-1 text-sm text-gray-600 dark:text-gray-400">
        {crumbs.map((crumb) => (
          <li key={crumb.to} className="flex min-w-0 items-center gap-1">
            <Link to={crumb.to} className={`${CRUMB} break-all`}>
              {crumb.label}
            </Link>
            <ChevronRight aria-hidden="true" className="size-3.5 shrink-0" />
          </li>
        ))}
        <li aria-current="page" className="min-w-0 font-medium break-all text-gray-900 dark:text-gray-100">
          {entity.name}
        </li>
      </ol>
    </nav>
  );
}

/** What an entity holds (a campaign's ad sets, an ad set's ads), each linked to its own page. */
function Children({ entity, window }: { entity: EntityDetail; window: ReturnType<typeof windowQuery> }) {
  const words = useEntityWords();
  const { t } = words;
  const level = childLevel(entity.level);
  const children = useQuery({
    ...childrenQueryOptions(entity.id, level ?? 'ad', { level: level ?? 'ad', sort: '-spend', ...window }),
    enabled: level !== null,
  });
  if (!level) return null;
  const rows = children.data?.data ?? [];
  const days = rangeDays(entity.account);
  return (
    <Card>
      <CardContent className="space-y-3">
        <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">
          {t(`entity.children.${entity.level === 'campaign' ? 'campaign' : 'adset'}`)}
        </h2>
        {!children.data ? (
          <Spinner label={t('rows.loadingChildren')} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('rows.noChildren')}</p>
        ) : (
          <ul className="divide-y divide-gray-200 dark:divide-gray-800">
            {rows.map((child) => (
              <li key={child.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm">
                <Link
                  to={`/campaigns/${child.id}`}
                  className="min-w-0 flex-1 basis-48 font-medium break-words text-blue-700 hover:underline dark:text-blue-300"
                >
                  {child.name}
                </Link>
                <StatusBadge status={child.effectiveStatus} />
                <span className="w-28">
                  <MetricValue
                    metric="spend"
                    value={child.metrics.spend}
                    previous={child.previous.spend}
                    currency={child.currency}
                    days={days}
                  />
                </span>
                <span className="w-20">
                  <MetricValue
                    metric="results"
                    value={child.metrics.results}
                    previous={child.previous.results}
                    currency={child.currency}
                    days={days}
                  />
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** /campaigns/:id: one campaign, ad set or ad, where it sits, its figures per day with actions marked, its history. */
export function EntityPage() {
  const { id = '' } = useParams();
  const words = useEntityWords();
  const { t } = words;
  const canEdit = useCan('editor');
  const [params, setParams] = useSearchParams();
  const windowChoice: WindowChoice = isWindowChoice(params.get('window'))
    ? (params.get('window') as WindowChoice)
    : 'last_30d';
  const custom = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const window = windowQuery(
    windowChoice === 'custom' && (!custom.from || !custom.to) ? 'last_30d' : windowChoice,
    custom,
  );
  const detail = useQuery(entityQueryOptions(id, window));
  const [metric, setMetric] = useState<ChartMetric>('spend');
  const [dialog, setDialog] = useState<DialogAction | null>(null);

  if (detail.isError) {
    const missing = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold text-gray-900 dark:text-white">{t('title')}</h1>
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {missing ? t('entity.notFound') : t('entity.loadFailed')}
        </p>
        <Link to="/campaigns" className={CRUMB}>
          {t('entity.back')}
        </Link>
      </div>
    );
  }
  if (!detail.data)
    return (
      <div className="flex justify-center py-16">
        <Spinner size="lg" label={t('loading')} />
      </div>
    );

  const entity = detail.data;
  const days = rangeDays(entity.account);
  const budget = words.budget(entity);
  const { canPause, canResume, canBudget } = allowedActions(entity);
  const settling = settlingDays(entity.account);
  const withData = entity.daily.filter((day) => day.hasData);
  const missingDays = entity.daily.length - withData.length;

  return (
    <div className="min-w-0 space-y-6">
      <Breadcrumbs entity={entity} />
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-2">
          <p className="text-sm text-gray-600 dark:text-gray-400">
            {t(`level.${entity.level}`)} · {t('entity.metaId', { id: entity.externalId })}
          </p>
          <h1 className="text-2xl font-bold break-words text-gray-900 sm:text-3xl dark:text-white">{entity.name}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
            <StatusBadge status={entity.effectiveStatus} />
            {budget.amount && <span>{budget.amount}</span>}
            {budget.holder && <span className="text-gray-500 dark:text-gray-400">{budget.holder}</span>}
          </div>
          <KnowsLine entity={entity} timeZone={entity.account.timezone} />
        </div>
        {canEdit && (canPause || canResume || canBudget) && (
          <div className="flex shrink-0 flex-wrap gap-2">
            {canPause && (
              <Button variant="secondary" onClick={() => setDialog('pause')}>
                <Pause aria-hidden="true" className="size-4" />
                {t('actionTypes.pause')}
              </Button>
            )}
            {canResume && (
              <Button variant="secondary" onClick={() => setDialog('resume')}>
                <Play aria-hidden="true" className="size-4" />
                {t('actionTypes.resume')}
              </Button>
            )}
            {canBudget && (
              <Button variant="secondary" onClick={() => setDialog('budget')}>
                <Wallet aria-hidden="true" className="size-4" />
                {t('bulk.budget')}
              </Button>
            )}
          </div>
        )}
      </header>
      <ReadOnlyNotice text={t('readOnly')} />

      <Card>
        <CardContent className="space-y-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('entity.figures')}</h2>
              <p className="text-sm text-gray-600 dark:text-gray-400">
                {words.format.dayRange(entity.account.from, entity.account.to)} ·{' '}
                {t('filters.zone', { zone: entity.account.timezone })}
              </p>
            </div>
            <div>
              <label htmlFor="entity-window" className="sr-only">
                {t('filters.window')}
              </label>
              <select
                id="entity-window"
                className={SELECT}
                value={windowChoice === 'custom' ? 'last_30d' : windowChoice}
                onChange={(event) =>
                  setParams(
                    (current) => {
                      const next = new URLSearchParams(current);
                      next.set('window', event.target.value);
                      next.delete('from');
                      next.delete('to');
                      return next;
                    },
                    { replace: true },
                  )
                }
              >
                {WINDOW_CHOICES.filter((choice) => choice !== 'custom').map((choice) => (
                  <option key={choice} value={choice}>
                    {t(`windows.${choice}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {METRIC_KEYS.map((key) => (
              <div key={key} className="rounded-lg border border-gray-200 p-3 dark:border-gray-800">
                <dt className="text-xs text-gray-500 dark:text-gray-400">{t(`columns.${key}`)}</dt>
                <dd className="mt-1 text-base font-semibold">
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
          {settling > 0 && (
            <p className="flex flex-wrap items-center gap-1.5 text-sm text-gray-600 dark:text-gray-400">
              <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
                {t('settling.badge')}
              </span>
              {t('settling.note', { count: settling })}
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('entity.chartTitle')}</h2>
            <div className="flex flex-wrap gap-1" role="group" aria-label={t('entity.chartTitle')}>
              {CHART_METRICS.map((key) => (
                <Button
                  key={key}
                  size="sm"
                  variant={metric === key ? 'primary' : 'ghost'}
                  aria-pressed={metric === key}
                  onClick={() => setMetric(key)}
                >
                  {t(`columns.${key}`)}
                </Button>
              ))}
            </div>
          </div>
          {withData.length === 0 ? (
            <p className="py-10 text-center text-sm text-gray-600 dark:text-gray-400">{t('entity.noDataAtAll')}</p>
          ) : (
            <Suspense
              fallback={
                <div className="flex h-72 items-center justify-center">
                  <Spinner />
                </div>
              }
            >
              <EntityChart
                daily={entity.daily}
                history={entity.history}
                metric={metric}
                currency={entity.currency}
                label={t('entity.chartLabel', { metric: t(`columns.${metric}`) })}
                noDataLabel={t('entity.noData')}
              />
            </Suspense>
          )}
          <p className="text-xs text-gray-500 dark:text-gray-400">
            {t('entity.actionsMarked')}
            {missingDays > 0 &&
              entity.account.firstDataDay &&
              ` · ${t('entity.noDataYet', { date: words.format.day(entity.account.firstDataDay) })}`}
          </p>
        </CardContent>
      </Card>

      <Children entity={entity} window={window} />

      <Card>
        <CardContent className="space-y-3">
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('entity.history')}</h2>
          <EntityHistory
            items={entity.history}
            currency={entity.currency}
            timeZone={entity.account.timezone}
            canEdit={canEdit}
          />
        </CardContent>
      </Card>

      <ActionDialog action={dialog} entities={[entity]} onClose={() => setDialog(null)} />
    </div>
  );
}
