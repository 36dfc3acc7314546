import { clsx } from 'clsx';
import { AlertTriangle, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format.ts';
import { Link } from 'react-router';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAiUsage } from '../api/ai.ts';
import { usagePercent, usageTone } from '../lib/pasted-json.ts';

const BAR = { blue: 'bg-blue-600', yellow: 'bg-yellow-500', red: 'bg-red-600' } as const;

/** Spec §2/§9: this month's AI requests against the plan, coloured by how much is used. */
export function UsageCard() {
  const { t } = useTranslation('ai-studio');
  const format = useFormat();
  const usage = useAiUsage();
  if (!usage.data) {
    return (
      <Card>
        <CardContent>{usage.isPending ? <Spinner label={t('usage.loading')} /> : null}</CardContent>
      </Card>
    );
  }
  const { used, limit, plan, provider, modelCalls, tokens } = usage.data;
  const percent = usagePercent(used, limit);
  const tone = usageTone(percent);
  return (
    <Card>
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Sparkles aria-hidden="true" className="size-5 text-blue-600 dark:text-blue-400" />
            <h2 className="font-semibold text-gray-900 dark:text-gray-100">{t('usage.title')}</h2>
          </div>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            {t('usage.plan', { plan: plan.toUpperCase() })} · {t(`usage.provider.${provider}`)}
          </p>
        </div>
        <p className="text-2xl font-bold text-gray-900 dark:text-white" data-testid="ai-usage-count">
          {t('usage.count', { used, limit: limit === -1 ? t('usage.unlimited') : limit })}
        </p>
        {modelCalls > 0 && (
          <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="ai-model-usage">
            {t('usage.model', { calls: format.number(modelCalls, 0), tokens: format.number(tokens, 0) })}
          </p>
        )}
        <div
          role="progressbar"
          aria-label={t('usage.title')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
          data-tone={tone}
          className="h-2 w-full overflow-hidden rounded-full bg-gray-200 dark:bg-gray-800"
        >
          <div className={clsx('h-full rounded-full', BAR[tone])} style={{ width: `${percent}%` }} />
        </div>
        {percent > 90 && (
          <p role="alert" className="flex items-center gap-2 text-sm text-red-700 dark:text-red-400">
            <AlertTriangle aria-hidden="true" className="size-4" />
            {t('usage.warning')}
            <Link to="/subscription" className="font-medium underline">
              {t('usage.upgrade')}
            </Link>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
