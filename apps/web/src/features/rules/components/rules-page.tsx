import type { Rule } from '@adpilot/contracts';
import { AlertTriangle, Plus } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { useCan } from '../../../api/workspaces.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDeleteRule } from '../api/delete-rule.ts';
import { useRules } from '../api/rules.ts';
import { useToggleRule } from '../api/toggle-rule.ts';
import { useApiErrorText } from '../hooks/use-api-error-text.ts';
import { PRIMARY_LINK } from './link-styles.ts';
import { RuleCard } from './rule-card.tsx';
import { ActivateDialog } from './rule-confirmations.tsx';
import { RuleStatsCards } from './rule-stats-cards.tsx';
import { RulesEmptyState } from './rules-empty-state.tsx';

export function RulesPage() {
  const { t } = useTranslation('rules');
  const errorText = useApiErrorText();
  const rules = useRules();
  const planLimit = usePlanLimitNotice();
  const canEdit = useCan('editor');
  const [toDelete, setToDelete] = useState<Rule | null>(null);
  const [activating, setActivating] = useState<Rule | null>(null);

  const toggle = useToggleRule({
    onSuccess: (rule) => {
      setActivating(null);
      toast.success(
        rule.isActive ? t('toast.activated', { name: rule.name }) : t('toast.deactivated', { name: rule.name }),
      );
    },
    onError: (error) => {
      setActivating(null);
      toast.error(planLimit(error) ?? errorText(error, t('toast.toggleFailed')));
    },
  });
  // Switching on moves money from the next check on, so it asks first; switching off does not.
  const onToggle = (rule: Rule) => (rule.isActive ? toggle.mutate(rule) : setActivating(rule));
  const remove = useDeleteRule({
    onSuccess: (rule) => {
      setToDelete(null);
      toast.success(t('toast.deleted', { name: rule.name }));
    },
    onError: (error) => toast.error(errorText(error, t('toast.deleteFailed'))),
  });

  const renderContent = () => {
    if (rules.isPending) {
      return (
        <div className="flex justify-center py-16">
          <Spinner size="lg" label={t('loading')} />
        </div>
      );
    }
    if (rules.isError) {
      return (
        <Card role="alert" className="flex flex-col items-center px-6 py-14 text-center">
          <AlertTriangle aria-hidden="true" className="size-10 text-red-500 dark:text-red-400" />
          <h2 className="mt-4 text-lg font-semibold text-gray-900 dark:text-gray-100">{t('error.title')}</h2>
          <p className="mt-2 max-w-md text-sm text-gray-600 dark:text-gray-400">
            {errorText(rules.error, t('error.message'))}
          </p>
          <Button variant="secondary" className="mt-6" onClick={() => void rules.refetch()} loading={rules.isFetching}>
            {t('error.retry')}
          </Button>
        </Card>
      );
    }
    return (
      <>
        <RuleStatsCards rules={rules.data} />
        {rules.data.length === 0 ? (
          <RulesEmptyState />
        ) : (
          <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
            {rules.data.map((rule) => (
              <li key={rule.id} className="flex">
                <RuleCard
                  rule={rule}
                  toggling={toggle.isPending && toggle.variables.id === rule.id}
                  onToggle={onToggle}
                  onDelete={setToDelete}
                />
              </li>
            ))}
          </ul>
        )}
      </>
    );
  };

  return (
    <div className="space-y-8">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canEdit && (
            <Link to="/rules/new" className={PRIMARY_LINK}>
              <Plus aria-hidden="true" className="size-4" />
              {t('create')}
            </Link>
          )
        }
      />
      <ReadOnlyNotice />
      {renderContent()}
      <ActivateDialog
        rule={activating}
        busy={toggle.isPending}
        onConfirm={(rule) => toggle.mutate(rule)}
        onCancel={() => setActivating(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        variant="danger"
        title={t('deleteDialog.title')}
        message={t('deleteDialog.message', { name: toDelete?.name ?? '' })}
        confirmLabel={t('deleteDialog.confirm')}
        cancelLabel={t('cancel')}
        closeLabel={t('close')}
        busy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
