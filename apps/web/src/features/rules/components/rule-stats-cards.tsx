import type { Rule } from '@adpilot/contracts';
import { Activity, ListChecks, Power, Workflow, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { ruleStats } from '../lib/rule-stats.ts';

function Counter({ label, value, icon: Icon }: { label: string; value: number; icon: LucideIcon }) {
  const { i18n } = useTranslation();
  return (
    <Card role="group" aria-label={label} className="flex items-center gap-4 p-5">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div>
        <p className="text-sm font-medium text-gray-600 dark:text-gray-400">{label}</p>
        <p className="text-2xl font-bold text-gray-900 dark:text-white">{formatNumber(value, i18n.language)}</p>
      </div>
    </Card>
  );
}

export function RuleStatsCards({ rules }: { rules: readonly Rule[] }) {
  const { t } = useTranslation('rules');
  const stats = ruleStats(rules);
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <Counter label={t('stats.total')} value={stats.total} icon={Workflow} />
      <Counter label={t('stats.active')} value={stats.active} icon={Power} />
      <Counter label={t('stats.haveRun')} value={stats.haveRun} icon={Activity} />
      <Counter label={t('stats.conditions')} value={stats.conditions} icon={ListChecks} />
    </div>
  );
}
