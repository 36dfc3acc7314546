import { MONTHLY_BUDGET_MAX, type AdAccount, type MonthlyBudget } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { BellOff, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { formatDateTime, formatMoney, formatPercent } from '../../../lib/format.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import {
  useAccountCampaigns,
  useMonthlyBudgets,
  useMuteAnomalies,
  useSetMonthlyBudget,
} from '../api/account-signals.ts';

const STATUS_STYLE: Record<MonthlyBudget['status'], string> = {
  on_track: 'text-green-700 dark:text-green-400',
  over: 'text-red-700 dark:text-red-400',
  under: 'text-amber-700 dark:text-amber-300',
};

const ACCOUNT = '';

/**
 * An account's monthly budgets with this month's pacing (ADR 0124), set and removed by an editor, and the anomaly
 * watch's mute (ADR 0125). Budgets are read once the panel is opened.
 */
export function AccountSignals({ account, canEdit }: { account: AdAccount; canEdit: boolean }) {
  const { t, i18n } = useTranslation('ad-accounts');
  const id = useId();
  const language = i18n.language;
  const errorMessage = useServerMessage();
  const [open, setOpen] = useState(false);
  const budgets = useMonthlyBudgets(account.id, open);
  const campaigns = useAccountCampaigns(account.id, open && canEdit);
  const setBudget = useSetMonthlyBudget(account.id);
  const mute = useMuteAnomalies(account.id);
  const [target, setTarget] = useState(ACCOUNT);
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);

  const mutedUntil =
    account.anomaly_muted_until && Date.parse(account.anomaly_muted_until) > Date.now()
      ? account.anomaly_muted_until
      : null;
  const money = (value: number, currency: string) => formatMoney(value, currency, language);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    if (!amount.trim() || !Number.isFinite(value) || value <= 0 || value > MONTHLY_BUDGET_MAX) {
      setAmountError(t('signals.amountInvalid'));
      return;
    }
    setAmountError(null);
    setBudget.mutate(
      { campaign_id: target === ACCOUNT ? null : target, amount: value },
      {
        onSuccess: () => {
          setAmount('');
          toast.success(t('signals.saved'));
        },
        onError: (error) => toast.error(errorMessage(error, t('signals.saveFailed'))),
      },
    );
  };
  const remove = (budget: MonthlyBudget) =>
    setBudget.mutate(
      { campaign_id: budget.campaign_id, amount: null },
      { onError: (error) => toast.error(errorMessage(error, t('signals.saveFailed'))) },
    );
  const toggleMute = () =>
    mute.mutate(mutedUntil ? 0 : 24, {
      onError: (error) => toast.error(errorMessage(error, t('signals.muteFailed'))),
    });

  return (
    <details
      className="mt-4 rounded-lg border border-gray-200 p-3 text-sm dark:border-gray-800"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer font-medium text-gray-900 dark:text-gray-100">{t('signals.title')}</summary>
      <div className="mt-3 space-y-3">
        <h4 className="text-xs font-semibold text-gray-600 uppercase dark:text-gray-400">{t('signals.budgets')}</h4>
        {budgets.isPending && open && <p className="text-gray-500">{t('signals.loading')}</p>}
        {budgets.data?.length === 0 && <p className="text-gray-500 dark:text-gray-400">{t('signals.none')}</p>}
        {budgets.data && budgets.data.length > 0 && (
          <ul className="space-y-2">
            {budgets.data.map((budget) => (
              <li key={budget.campaign_id ?? ACCOUNT} className="flex items-start justify-between gap-2">
                <div>
                  <p className="font-medium text-gray-900 dark:text-gray-100">
                    {t('signals.budgetOf', {
                      name: budget.campaign_id ? budget.name : t('signals.wholeAccount'),
                      amount: money(budget.amount, budget.currency),
                    })}
                  </p>
                  <p className="text-xs text-gray-600 dark:text-gray-400">
                    {t('signals.pacing', {
                      spent: money(budget.month_to_date, budget.currency),
                      projected: money(budget.projected, budget.currency),
                      percent: formatPercent(budget.percent, language),
                    })}{' '}
                    <span className={clsx('font-medium', STATUS_STYLE[budget.status])}>
                      {t(`signals.status.${budget.status}`)}
                    </span>
                  </p>
                </div>
                {canEdit && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="px-2"
                    aria-label={t('signals.remove', {
                      name: budget.campaign_id ? budget.name : t('signals.wholeAccount'),
                    })}
                    disabled={setBudget.isPending}
                    onClick={() => remove(budget)}
                  >
                    <Trash2 aria-hidden="true" className="size-4 text-red-600 dark:text-red-400" />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {canEdit && (
          <form className="flex flex-wrap items-end gap-2" onSubmit={save} noValidate>
            <div>
              <label htmlFor={`${id}-target`} className="block text-xs text-gray-600 dark:text-gray-400">
                {t('signals.target')}
              </label>
              <select
                id={`${id}-target`}
                value={target}
                onChange={(event) => setTarget(event.target.value)}
                className="mt-1 rounded-md border border-gray-300 bg-white px-2 py-1.5 dark:border-gray-600 dark:bg-gray-900"
              >
                <option value={ACCOUNT}>{t('signals.wholeAccount')}</option>
                {(campaigns.data ?? []).map((campaign) => (
                  <option key={campaign.externalId} value={campaign.externalId}>
                    {campaign.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${id}-amount`} className="block text-xs text-gray-600 dark:text-gray-400">
                {t('signals.amount', { currency: account.currency })}
              </label>
              <Input
                id={`${id}-amount`}
                type="number"
                min={1}
                step="any"
                inputMode="decimal"
                value={amount}
                invalid={amountError !== null}
                onChange={(event) => setAmount(event.target.value)}
                className="mt-1 w-36"
              />
            </div>
            <Button size="sm" type="submit" loading={setBudget.isPending}>
              {t('signals.set')}
            </Button>
            {amountError && (
              <p id={`${id}-amount-error`} className="w-full text-xs text-red-600 dark:text-red-400">
                {amountError}
              </p>
            )}
          </form>
        )}

        <h4 className="pt-2 text-xs font-semibold text-gray-600 uppercase dark:text-gray-400">
          {t('signals.anomalies')}
        </h4>
        <p className="text-gray-700 dark:text-gray-300">
          {mutedUntil
            ? t('signals.mutedUntil', {
                time: formatDateTime(mutedUntil, language, { timeZone: account.timezone }),
              })
            : account.anomaly_sensitivity === 'off'
              ? t('signals.watchOff')
              : t('signals.watching')}
        </p>
        {canEdit && account.anomaly_sensitivity !== 'off' && (
          <Button size="sm" variant="secondary" loading={mute.isPending} onClick={toggleMute}>
            {!mute.isPending && <BellOff aria-hidden="true" className="size-4" />}
            {mutedUntil ? t('signals.unmute') : t('signals.mute')}
          </Button>
        )}
      </div>
    </details>
  );
}
