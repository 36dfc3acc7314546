import { AGENT_POLICY_LIMITS, type AgentPolicy } from '@adpilot/contracts';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useAgentPolicy, useSaveAgentPolicy } from '../api/agents.ts';
import { useErrorText } from '../hooks/use-error-text.ts';

const wholeIn = (value: string, min: number, max: number) =>
  /^\d{1,4}$/.test(value) && Number(value) >= min && Number(value) <= max;

/** The workspace's agent policy: admins and owners change it, everyone else reads it. */
export function AgentPolicyCard({ workspaceId, canEdit }: { workspaceId: string; canEdit: boolean }) {
  const { t } = useTranslation('agents');
  const errorText = useErrorText();
  const policy = useAgentPolicy(workspaceId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('policy.title')}</CardTitle>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('policy.description')}</p>
      </CardHeader>
      <CardContent>
        {policy.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : policy.isError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errorText(policy.error, t('policy.loadFailed'))}
          </p>
        ) : (
          <PolicyForm workspaceId={workspaceId} policy={policy.data} canEdit={canEdit} />
        )}
      </CardContent>
    </Card>
  );
}

function PolicyForm({ workspaceId, policy, canEdit }: { workspaceId: string; policy: AgentPolicy; canEdit: boolean }) {
  const { t, i18n } = useTranslation('agents');
  const errorText = useErrorText();
  const save = useSaveAgentPolicy(workspaceId);
  const [percent, setPercent] = useState(String(policy.maxBudgetChangePercent));
  const [perDay, setPerDay] = useState(String(policy.maxChangesPerDay));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set(policy.protectedCampaignIds));
  const [filter, setFilter] = useState('');
  const [touched, setTouched] = useState(false);
  const percentId = useId();
  const perDayId = useId();
  const filterId = useId();

  useEffect(() => {
    setPercent(String(policy.maxBudgetChangePercent));
    setPerDay(String(policy.maxChangesPerDay));
    setChosen(new Set(policy.protectedCampaignIds));
  }, [policy]);

  const percentOk = wholeIn(percent, AGENT_POLICY_LIMITS.budgetPercentMin, AGENT_POLICY_LIMITS.budgetPercentMax);
  const perDayOk = wholeIn(perDay, 0, AGENT_POLICY_LIMITS.changesPerDayMax);
  const shown = useMemo(() => {
    const needle = filter.trim().toLocaleLowerCase();
    return needle === ''
      ? policy.campaigns
      : policy.campaigns.filter((campaign) =>
          `${campaign.name} ${campaign.adAccountName}`.toLocaleLowerCase().includes(needle),
        );
  }, [filter, policy.campaigns]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!percentOk || !perDayOk) return;
    save.mutate(
      { maxBudgetChangePercent: Number(percent), maxChangesPerDay: Number(perDay), protectedCampaignIds: [...chosen] },
      {
        onSuccess: () => toast.success(t('policy.saved')),
        onError: (error) => toast.error(errorText(error, t('policy.saveFailed'))),
      },
    );
  };
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={percentId}
          label={t('policy.maxBudget')}
          error={
            touched && !percentOk
              ? t('policy.invalidNumber', {
                  min: AGENT_POLICY_LIMITS.budgetPercentMin,
                  max: AGENT_POLICY_LIMITS.budgetPercentMax,
                })
              : undefined
          }
        >
          <Input
            id={percentId}
            inputMode="numeric"
            value={percent}
            disabled={!canEdit}
            invalid={touched && !percentOk}
            onChange={(event) => setPercent(event.target.value)}
          />
        </Field>
        <Field
          id={perDayId}
          label={t('policy.maxChanges')}
          error={
            touched && !perDayOk
              ? t('policy.invalidNumber', { min: 0, max: AGENT_POLICY_LIMITS.changesPerDayMax })
              : undefined
          }
        >
          <Input
            id={perDayId}
            inputMode="numeric"
            value={perDay}
            disabled={!canEdit}
            invalid={touched && !perDayOk}
            onChange={(event) => setPerDay(event.target.value)}
          />
          <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">{t('policy.maxChangesHint')}</p>
        </Field>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-gray-700 dark:text-gray-300">{t('policy.protected')}</legend>
        <p className="text-xs text-gray-600 dark:text-gray-400">{t('policy.protectedHint')}</p>
        {policy.campaigns.length === 0 ? (
          <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t('policy.noCampaigns')}</p>
        ) : (
          <div className="mt-2 space-y-2">
            <label htmlFor={filterId} className="sr-only">
              {t('policy.filter')}
            </label>
            <Input
              id={filterId}
              type="search"
              placeholder={t('policy.filter')}
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
            <ul className="max-h-60 divide-y divide-gray-100 overflow-y-auto rounded-lg border border-gray-200 dark:divide-gray-800 dark:border-gray-700">
              {shown.map((campaign) => (
                <li key={campaign.id}>
                  <label className="flex cursor-pointer items-start gap-3 px-3 py-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-0.5"
                      checked={chosen.has(campaign.id)}
                      disabled={!canEdit}
                      onChange={() => toggle(campaign.id)}
                    />
                    <span className="min-w-0">
                      <span className="block wrap-anywhere text-gray-900 dark:text-gray-100">{campaign.name}</span>
                      <span className="block text-xs text-gray-600 dark:text-gray-400">{campaign.adAccountName}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </div>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-gray-600 dark:text-gray-400">
          {policy.updatedAt
            ? t('policy.updated', { date: formatDateTime(policy.updatedAt, i18n.language) })
            : t('policy.defaults')}
        </p>
        {canEdit && (
          <Button type="submit" loading={save.isPending}>
            {t('policy.save')}
          </Button>
        )}
      </div>
    </form>
  );
}
