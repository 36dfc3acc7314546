import type { AnalysisItem } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BarChart3, CalendarDays } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { adAccountsQueryOptions } from '../../../api/ad-accounts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { getAccountStats, useAnalyzeAccount, useAnalyzePerformance } from '../api/ai.ts';
import { useAiErrorText } from '../hooks/use-ai-error-text.ts';
import { accountWeek } from '../lib/account-week.ts';
import { readPastedJson } from '../lib/pasted-json.ts';
import { JsonField } from './json-field.tsx';
import { LABEL, SELECT } from './styles.ts';
import { usePlanLimitNotice } from '../../../components/plan-limit.tsx';

/** Spec §2: optimization blue, warning yellow, anything else green. */
const BADGE: Record<AnalysisItem['type'], string> = {
  optimization: 'bg-blue-100 text-blue-800 dark:bg-blue-900/40 dark:text-blue-300',
  warning: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-900/40 dark:text-yellow-300',
  success: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-300',
};

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The account's own figures over a range: pick an account and the days, nothing pasted (issue 29). */
function AccountAnalysis({ onItems }: { onItems: (items: AnalysisItem[]) => void }) {
  const { t } = useTranslation('ai-studio');
  const base = useId();
  const errorText = useAiErrorText();
  const planLimit = usePlanLimitNotice();
  const accounts = useQuery(adAccountsQueryOptions());
  const analyze = useAnalyzeAccount();
  const [accountId, setAccountId] = useState('');
  const [to, setTo] = useState(() => isoDay(Date.now() - DAY_MS));
  const [from, setFrom] = useState(() => isoDay(Date.now() - 7 * DAY_MS));
  const chosen = accountId || accounts.data?.[0]?.id || '';
  if (!accounts.data || accounts.data.length === 0) return null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    analyze.mutate(
      { adAccountId: chosen, from, to },
      {
        onSuccess: (result) => {
          onItems(result);
          toast.success(t('analysis.success'));
        },
        onError: (failure) => toast.error(planLimit(failure) ?? errorText(failure, t('analysis.failed'))),
      },
    );
  };
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-gray-200 p-3 dark:border-gray-800"
    >
      <div>
        <label htmlFor={`${base}-account`} className={LABEL}>
          {t('analysis.account')}
        </label>
        <select
          id={`${base}-account`}
          value={chosen}
          onChange={(event) => setAccountId(event.target.value)}
          className={`${SELECT} mt-1 max-w-[16rem]`}
        >
          {accounts.data.map((account) => (
            <option key={account.id} value={account.id}>
              {account.facebook_account_name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${base}-from`} className={LABEL}>
          {t('analysis.from')}
        </label>
        <input
          id={`${base}-from`}
          type="date"
          value={from}
          max={to}
          onChange={(event) => setFrom(event.target.value)}
          className={`${SELECT} mt-1`}
        />
      </div>
      <div>
        <label htmlFor={`${base}-to`} className={LABEL}>
          {t('analysis.to')}
        </label>
        <input
          id={`${base}-to`}
          type="date"
          value={to}
          min={from}
          onChange={(event) => setTo(event.target.value)}
          className={`${SELECT} mt-1`}
        />
      </div>
      <Button type="submit" variant="secondary" loading={analyze.isPending} disabled={!chosen || !from || !to}>
        <BarChart3 aria-hidden="true" className="size-4" />
        {t('analysis.analyzeAccount')}
      </Button>
    </form>
  );
}

export function AnalysisTab() {
  const { t } = useTranslation('ai-studio');
  const id = useId();
  const queryClient = useQueryClient();
  const errorText = useAiErrorText();
  // A plan refusal names the limit and the plan and links to the Subscription page (ADR 0058).
  const planLimit = usePlanLimitNotice();
  const analyze = useAnalyzePerformance();
  const [data, setData] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [filling, setFilling] = useState(false);
  const [items, setItems] = useState<AnalysisItem[] | null>(null);

  const fillFromMyAccount = async () => {
    setFilling(true);
    try {
      const accounts = await queryClient.fetchQuery(adAccountsQueryOptions());
      const account = accounts.find((entry) => entry.account_status === 'active') ?? accounts[0];
      if (!account) {
        toast.error(t('analysis.noAccount'));
        return;
      }
      const week = accountWeek(account, await getAccountStats(account.id));
      setData(JSON.stringify(week, null, 2));
      setError(null);
      toast.success(t('analysis.filled', { name: account.facebook_account_name }));
    } catch (failure) {
      toast.error(planLimit(failure) ?? errorText(failure, t('analysis.accountFailed')));
    } finally {
      setFilling(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const pasted = readPastedJson(data);
    if (!pasted.ok) {
      setError(t(`analysis.${pasted.reason}`));
      return;
    }
    setError(null);
    analyze.mutate(pasted.value, {
      onSuccess: (result) => {
        setItems(result);
        toast.success(t('analysis.success'));
      },
      onError: (failure) => toast.error(planLimit(failure) ?? errorText(failure, t('analysis.failed'))),
    });
  };

  return (
    <div className="space-y-4">
      <AccountAnalysis onItems={setItems} />
      <form onSubmit={onSubmit} className="space-y-3" noValidate>
        <div className="flex flex-wrap items-end justify-between gap-2">
          <label htmlFor={id} className={LABEL}>
            {t('analysis.label')}
          </label>
          <Button variant="secondary" size="sm" onClick={() => void fillFromMyAccount()} loading={filling}>
            <CalendarDays aria-hidden="true" className="size-4" />
            {t('analysis.useAccount')}
          </Button>
        </div>
        <JsonField
          id={id}
          rows={10}
          value={data}
          onChange={setData}
          placeholder={t('analysis.placeholder')}
          error={error}
        />
        <Button type="submit" loading={analyze.isPending}>
          <BarChart3 aria-hidden="true" className="size-4" />
          {t('analysis.submit')}
        </Button>
      </form>
      {items && (
        <section aria-label={t('analysis.resultsTitle')} className="space-y-3">
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('analysis.resultsTitle')}</h2>
          <ul className="space-y-3">
            {items.map((item, index) => (
              <li
                key={index}
                data-testid="analysis-item"
                className="rounded-lg border border-gray-200 bg-white p-4 dark:border-gray-800 dark:bg-gray-900"
              >
                <span
                  data-type={item.type}
                  className={clsx('inline-block rounded-full px-2 py-0.5 text-xs font-medium', BADGE[item.type])}
                >
                  {t(`analysis.type.${item.type}`)}
                </span>
                <h3 className="mt-2 font-medium text-gray-900 dark:text-gray-100">{item.title}</h3>
                <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">{item.description}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
