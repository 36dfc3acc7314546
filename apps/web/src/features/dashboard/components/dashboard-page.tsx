import { Activity, CalendarCheck, Megaphone, Workflow } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adAccountsQueryOptions } from '../../../api/ad-accounts.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { QuickActionsCard } from './quick-actions-card.tsx';
import { RecentActivityCard } from './recent-activity-card.tsx';
import { StatCard } from './stat-card.tsx';

/** Rule and action figures read zero until the rules and activity-log endpoints feed them. */
const SUMMARY = { activeRules: 0, actionsToday: 0, totalActions: 0 };

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const user = useCurrentUser();
  // The Ad Accounts page's own query: a connect or disconnect there updates this count from the same cache entry.
  const adAccounts = useQuery({ ...adAccountsQueryOptions(), select: (accounts) => accounts.length });
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl dark:text-white">
          {t('welcome', { name: user.name })}
        </h1>
        <p className="mt-1 text-gray-600 dark:text-gray-400">{t('subtitle')}</p>
      </header>
      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label={t('stats.activeRules')} value={SUMMARY.activeRules} icon={Workflow} />
        <StatCard label={t('stats.adAccounts')} value={adAccounts.data ?? 0} icon={Megaphone} />
        <StatCard label={t('stats.actionsToday')} value={SUMMARY.actionsToday} icon={CalendarCheck} />
        <StatCard label={t('stats.totalActions')} value={SUMMARY.totalActions} icon={Activity} />
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <RecentActivityCard />
        <QuickActionsCard />
      </div>
    </div>
  );
}
