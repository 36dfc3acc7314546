import { BarChart3, Plus, Workflow, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';

/**
 * `?connect=1` asks the Ad Accounts page to open its connect dialog straight away; /reports is the Reports page.
 * The actions that change the workspace (`writes`) are left out for a viewer.
 */
const ACTIONS: readonly { key: string; to: string; icon: LucideIcon; writes: boolean }[] = [
  { key: 'connect', to: '/ad-accounts?connect=1', icon: Plus, writes: true },
  { key: 'createRule', to: '/rules/new', icon: Workflow, writes: true },
  { key: 'viewReports', to: '/reports', icon: BarChart3, writes: false },
];

export function QuickActionsCard() {
  const { t } = useTranslation('dashboard');
  const canEdit = useCan('editor');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('quickActions.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {ACTIONS.filter(({ writes }) => canEdit || !writes).map(({ key, to, icon: Icon }) => (
          <Link
            key={key}
            to={to}
            className="flex items-center gap-4 rounded-lg border border-gray-200 p-4 transition-colors hover:border-blue-300 hover:bg-blue-50 dark:border-gray-800 dark:hover:border-blue-800 dark:hover:bg-blue-950"
          >
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-blue-600 text-white">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <span>
              <span className="block font-medium text-gray-900 dark:text-white">{t(`quickActions.${key}.title`)}</span>
              <span className="block text-sm text-gray-600 dark:text-gray-400">
                {t(`quickActions.${key}.description`)}
              </span>
            </span>
          </Link>
        ))}
      </CardContent>
    </Card>
  );
}
