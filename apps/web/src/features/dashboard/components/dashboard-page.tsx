import { Activity, CalendarCheck, Megaphone, Workflow } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { logStatsQueryOptions } from '../../../api/activity-logs.ts';
import { adAccountsQueryOptions, useAccountsToday } from '../../../api/ad-accounts.ts';
import { pendingProposalsQueryOptions } from '../../../api/proposals.ts';
import { rulesQueryOptions } from '../../../api/rules.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { isNewAccount, useCurrentUser } from '../../../lib/auth.tsx';
import { useOverview } from '../api/overview.ts';
import { PerformanceCard, RulesMonthCard } from './overview-cards.tsx';
import { QuickActionsCard } from './quick-actions-card.tsx';
import { RecentActivityCard } from './recent-activity-card.tsx';
import { StatCard } from './stat-card.tsx';

/**
 * Spec §2 with real figures: active rules, connected accounts, log entries since the accounts' midnight, and the true
 * number of log entries (not the spec's count of the first page loaded, which stops at 50; ADR 0046).
 */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const user = useCurrentUser();
  // Today as the ad accounts count it (ADR 0131): Actions Today from its midnight, the month and 30 days to it.
  const today = useAccountsToday();
  // The Ad Accounts page's own query: a connect or disconnect there updates this count from the same cache entry.
  const adAccounts = useQuery({ ...adAccountsQueryOptions(), select: (accounts) => accounts.length });
  const activeRules = useQuery({
    ...rulesQueryOptions(),
    select: (rules) => rules.filter((rule) => rule.isActive).length,
  });
  const allRules = useQuery({ ...rulesQueryOptions(), select: (rules) => rules.length });
  // The shell's Inbox count: the same query, so the card and the sidebar never disagree.
  const waiting = useQuery({ ...pendingProposalsQueryOptions(), select: (proposals) => proposals.length });
  const overview = useOverview(today?.date);
  const overviewProps = { overview: overview.data, failed: overview.isError, onRetry: () => void overview.refetch() };
  const all = useQuery(logStatsQueryOptions({}));
  const sinceMidnight = useQuery({ ...logStatsQueryOptions({ from: today?.midnight }), enabled: today !== null });
  const loading = [adAccounts, activeRules, all, sinceMidnight].some((query) => query.isPending);

  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-white">
          {t(isNewAccount(user.id) ? 'welcomeNew' : 'welcome', { name: user.name })}
        </h1>
        <p className="mt-1 text-gray-600 dark:text-gray-400">{t('subtitle')}</p>
      </header>
      {loading && <Spinner size="lg" className="flex justify-center" />}
      <section className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard label={t('stats.activeRules')} value={activeRules.data ?? 0} icon={Workflow} />
        <StatCard label={t('stats.adAccounts')} value={adAccounts.data ?? 0} icon={Megaphone} />
        <StatCard label={t('stats.actionsToday')} value={sinceMidnight.data?.total ?? 0} icon={CalendarCheck} />
        <StatCard label={t('stats.totalActions')} value={all.data?.total ?? 0} icon={Activity} />
      </section>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <PerformanceCard {...overviewProps} />
        </div>
        <RulesMonthCard {...overviewProps} rules={allRules.data} waiting={waiting.data} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <RecentActivityCard />
        <QuickActionsCard />
      </div>
    </div>
  );
}
