import { countConditions, type Rule } from '@adpilot/contracts';
import { ArrowLeft, Pencil } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useCan } from '../../../api/workspaces.ts';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRule } from '../api/rules.ts';
import { useToggleRule } from '../api/toggle-rule.ts';
import { useApiErrorText } from '../hooks/use-api-error-text.ts';
import { useWords } from '../hooks/use-words.ts';
import { warningText } from '../lib/explain.ts';
import { windowsText } from '../lib/windows-text.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { BacktestPanel } from './backtest-panel.tsx';
import { Section } from './builder/controls.tsx';
import { SECONDARY_LINK } from './link-styles.ts';
import { ActivateDialog, RunNowButton } from './rule-confirmations.tsx';
import { RuleHolds } from './rule-holds.tsx';
import { RuleImpact } from './rule-impact.tsx';
import { RunHistory } from './run-history.tsx';

const BACK = 'inline-flex items-center gap-1 text-sm font-medium text-blue-600 hover:underline dark:text-blue-400';

function RuleSummary({ rule }: { rule: Rule }) {
  const words = useWords();
  const { t, language } = words;
  const schedule =
    'windows' in rule.schedule
      ? t('detail.windows', { windows: windowsText(rule.schedule.windows, language) })
      : 'dailyAt' in rule.schedule
        ? t('detail.dailyAt', { time: rule.schedule.dailyAt })
        : t('detail.everyMinutes', { count: rule.schedule.everyMinutes });
  const rows: [string, string][] = [
    [t('detail.level'), t(`levels.${rule.scope.level}`)],
    [t('detail.schedule'), schedule],
    [t('builder.conditions'), t('card.conditions', { count: countConditions(rule.conditions) })],
    [
      t('builder.actions'),
      rule.actions
        .map((action) =>
          action.type === 'pause' && action.resumeAfter
            ? 'hours' in action.resumeAfter
              ? t('detail.resumeAfterHours', { count: action.resumeAfter.hours })
              : t('detail.resumeAtTime', { time: action.resumeAfter.atLocalTime })
            : t(`actionTypes.${action.type}`),
        )
        .join(', '),
    ],
  ];
  if (rule.lastTriggered) rows.push([t('detail.lastTriggered'), formatDateTime(rule.lastTriggered, language)]);
  return (
    <Section title={t('detail.summary')} description={rule.description || undefined}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-gray-500 dark:text-gray-400">{label}</dt>
            <dd className="text-gray-900 dark:text-gray-100">{value}</dd>
          </div>
        ))}
      </dl>
      {rule.warnings.length > 0 && (
        <ul className="space-y-1 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
          {rule.warnings.map((warning, index) => (
            <li key={index}>{warningText(warning, words)}</li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function RuleDetail({ rule }: { rule: Rule }) {
  const { t } = useTranslation('rules');
  const errorText = useApiErrorText();
  const planLimit = usePlanLimitNotice();
  const canEdit = useCan('editor');
  const [activating, setActivating] = useState<Rule | null>(null);
  const toggle = useToggleRule({
    onSuccess: () => setActivating(null),
    onError: (error) => {
      setActivating(null);
      toast.error(planLimit(error) ?? errorText(error, t('toast.toggleFailed')));
    },
  });
  // Switching on moves money from the next check on, so it asks first; switching off does not.
  const onToggle = () => (rule.isActive ? toggle.mutate(rule) : setActivating(rule));
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold break-words text-gray-900 sm:text-3xl dark:text-white">{rule.name}</h1>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {rule.isActive ? t('card.active') : t('card.inactive')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {canEdit && (
            <>
              <Button variant="secondary" loading={toggle.isPending} onClick={onToggle}>
                {rule.isActive ? t('card.deactivate') : t('card.activate')}
              </Button>
              <Link to={`/rules/${rule.id}/edit`} className={`${SECONDARY_LINK} h-10 px-4`}>
                <Pencil aria-hidden="true" className="size-4" />
                {t('detail.edit')}
              </Link>
            </>
          )}
          <RunNowButton rule={rule} />
        </div>
      </header>
      <ReadOnlyNotice />
      <ActivateDialog
        rule={activating}
        busy={toggle.isPending}
        onConfirm={(item) => toggle.mutate(item)}
        onCancel={() => setActivating(null)}
      />
      <div className="grid gap-6 xl:grid-cols-2">
        <RuleSummary rule={rule} />
        <BacktestPanel ruleId={rule.id} />
      </div>
      <RuleImpact ruleId={rule.id} />
      <RuleHolds rule={rule} />
      <RunHistory ruleId={rule.id} />
    </div>
  );
}

/** /rules/:id: the rule, its backtest, its impact, its runs and their actions. */
export function RuleDetailPage() {
  const { t } = useTranslation('rules');
  const { id = '' } = useParams();
  const rule = useRule(id);
  return (
    <div className="space-y-6">
      <Link to="/rules" className={BACK}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('builder.back')}
      </Link>
      {rule.isPending && <Spinner size="lg" label={t('loading')} />}
      {rule.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {t('detail.notFound')}
        </p>
      )}
      {rule.data && <RuleDetail rule={rule.data} />}
    </div>
  );
}
