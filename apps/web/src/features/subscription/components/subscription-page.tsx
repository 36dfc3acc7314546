import { SALES_EMAIL, type Plan } from '@adpilot/contracts';
import { clsx } from 'clsx';
import { AlertTriangle, CreditCard } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCurrentSubscription, usePlans } from '../../../api/subscription.ts';
import { useCan, useCurrentWorkspace, useInvitations, useMembers } from '../../../api/workspaces.ts';
import { ReadOnlyNotice } from '../../../components/read-only-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { pageCurrency, useBillingPortal, useCancelSubscription, useUpgrade } from '../api/subscription.ts';
import { PlanChangeQuestion } from './plan-change-question.tsx';
import { PlanCard } from './plan-card.tsx';
import { PlanPool } from './plan-pool.tsx';
import { ReceiptsCard } from './receipts-card.tsx';
import { UsageMeter } from './usage-meter.tsx';

const FAQ = ['changes', 'commitment', 'security', 'support'] as const;

/**
 * The seats taken in the current workspace: its members and its pending invitations, as the server counts them
 * (ADR 0071). Only admins and owners may read the invitations, so for others, and until both lists are read, it is
 * undefined and no meter is shown.
 */
function useSeatsUsed(): number | undefined {
  const { workspace } = useCurrentWorkspace();
  const manages = useCan('admin');
  const members = useMembers(workspace?.id ?? '', workspace !== undefined && manages);
  const invitations = useInvitations(workspace?.id ?? '', workspace !== undefined && manages);
  if (!manages || !members.data || !invitations.data) return undefined;
  return members.data.length + invitations.data.length;
}

/** Spec §2 "Subscription page", §4 and §8: Thai by default (its route sets the content language). */
export function SubscriptionPage() {
  const { t, i18n } = useTranslation(['subscription', 'errors']);
  const current = useCurrentSubscription();
  const plans = usePlans();
  // The plan is the workspace's: only its owners change it or its billing; others read it (ADR 0070).
  const owns = useCan('owner');
  const seatsUsed = useSeatsUsed();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [changeTo, setChangeTo] = useState<Plan | null>(null);
  const [promptPay, setPromptPay] = useState(false);

  /**
   * The server's refusal in the page's language by its code; otherwise `unknownCode` (the spec's fallback text, or
   * the envelope's own words), and the fallback for a 5xx or a network failure.
   */
  const errorText = (error: unknown, fallback: string, unknownCode = fallback) =>
    error instanceof ApiError && error.status > 0 && error.status < 500
      ? t(`errors:codes.${error.code}`, { defaultValue: unknownCode })
      : fallback;

  const upgrade = useUpgrade({
    onSuccess: (answer) => {
      setChangeTo(null);
      if (answer.url) window.location.assign(answer.url);
      else toast.success(t('toast.upgraded'));
    },
    onError: (error) => {
      setChangeTo(null);
      toast.error(errorText(error, t('toast.upgradeFailed')));
    },
  });
  const portal = useBillingPortal({
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => toast.error(errorText(error, t('toast.portalFailed'), error.message)),
  });
  const cancel = useCancelSubscription({
    onSuccess: () => {
      setConfirmCancel(false);
      toast.success(t('toast.canceled'));
    },
    onError: (error) => {
      setConfirmCancel(false);
      toast.error(errorText(error, t('toast.cancelFailed')));
    },
  });

  const choose = (plan: Plan) => {
    if (plan.id === current.data?.plan) {
      toast.error(t('toast.samePlan'));
      return;
    }
    // Every plan change moves money or switches rules off: it asks first, with the price and the limits (ADR 0058).
    setChangeTo(plan);
  };

  if (current.isPending || plans.isPending || current.isError || plans.isError) {
    return (
      <div className="space-y-8">
        <PageHeader title={t('title')} description={t('description')} />
        {current.isError || plans.isError ? (
          <Card role="alert" className="flex flex-col items-center px-6 py-14 text-center">
            <AlertTriangle aria-hidden="true" className="size-10 text-red-500" />
            <h2 className="mt-4 text-lg font-semibold text-gray-900 dark:text-gray-100">{t('error.title')}</h2>
            <Button
              variant="secondary"
              className="mt-6"
              onClick={() => void Promise.all([current.refetch(), plans.refetch()])}
            >
              {t('error.retry')}
            </Button>
          </Card>
        ) : (
          <div className="flex justify-center py-16">
            <Spinner size="lg" label={t('loading')} />
          </div>
        )}
      </div>
    );
  }

  const subscription = current.data;
  const expiry = formatDate(subscription.currentPeriodEnd, i18n.language);
  const pendingPlan = upgrade.isPending ? upgrade.variables?.planId : undefined;
  const seatsLimit =
    seatsUsed === undefined ? undefined : plans.data.find((plan) => plan.id === subscription.plan)?.limits.seats;

  return (
    <div className="space-y-8">
      <PageHeader title={t('title')} description={t('description')} />
      <ReadOnlyNotice needed="owner" text={t('ownersOnly')} />

      <Card className="p-6" aria-labelledby="current-plan-heading">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h2 id="current-plan-heading" className="text-sm font-medium text-gray-600 dark:text-gray-400">
              {t('currentPlan')}
            </h2>
            <p className="mt-1 text-2xl font-bold text-gray-900 dark:text-gray-100">
              {subscription.plan.toUpperCase()}
            </p>
            <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
              {t('status')}: <span className="font-medium">{t(`statuses.${subscription.status}`)}</span>
            </p>
            <p className="text-sm text-gray-600 dark:text-gray-400">
              {subscription.cancelAtPeriodEnd ? t('endsOn', { date: expiry }) : t('expiresOn', { date: expiry })}
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            {owns && subscription.canManageBilling && (
              <Button variant="secondary" onClick={() => portal.mutate()} loading={portal.isPending}>
                <CreditCard aria-hidden="true" className="size-4" />
                {t('manageBilling')}
              </Button>
            )}
            {owns &&
              !subscription.assignedByAdmin &&
              subscription.plan !== 'free' &&
              !subscription.cancelAtPeriodEnd && (
                <Button variant="danger" onClick={() => setConfirmCancel(true)} loading={cancel.isPending}>
                  {t('cancelPlan')}
                </Button>
              )}
          </div>
        </div>
        {subscription.status === 'past_due' && subscription.canManageBilling && (
          <p
            role="status"
            className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {t('pastDue')}
          </p>
        )}
        <div
          className={clsx(
            'mt-6 grid gap-6',
            seatsLimit === undefined ? 'md:grid-cols-3' : 'md:grid-cols-2 xl:grid-cols-4',
          )}
        >
          <UsageMeter
            label={t('meters.ai')}
            used={subscription.aiRequestsUsed}
            limit={subscription.aiRequestsLimit}
            blocksAtLimit
          />
          <UsageMeter label={t('meters.rules')} used={subscription.rulesUsed} limit={subscription.rulesLimit} />
          <UsageMeter
            label={t('meters.adAccounts')}
            used={subscription.adAccountsUsed}
            limit={subscription.adAccountsLimit}
          />
          {seatsLimit !== undefined && <UsageMeter label={t('meters.members')} used={seatsUsed!} limit={seatsLimit} />}
        </div>
      </Card>

      <PlanPool subscription={subscription} />

      <ReceiptsCard subscription={subscription} owns={owns} />

      <section aria-labelledby="plans-heading">
        <h2 id="plans-heading" className="mb-6 text-lg font-semibold text-gray-900 dark:text-gray-100">
          {subscription.assignedByAdmin ? t('plans') : t('choosePlan')}
        </h2>
        {subscription.assignedByAdmin && (
          <div
            role="status"
            className="mb-6 rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100"
          >
            <p className="font-medium">{t('askAdmin.title')}</p>
            <p className="mt-1">{t('askAdmin.body')}</p>
          </div>
        )}
        <div className="grid gap-6 pt-3 md:grid-cols-2 xl:grid-cols-4">
          {plans.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              current={plan.id === subscription.plan}
              pending={pendingPlan === plan.id}
              disabled={upgrade.isPending || !owns}
              onChoose={subscription.assignedByAdmin ? undefined : choose}
            />
          ))}
        </div>
      </section>

      <section aria-labelledby="faq-heading">
        <h2 id="faq-heading" className="mb-4 text-lg font-semibold text-gray-900 dark:text-gray-100">
          {t('faq.title')}
        </h2>
        <dl className="grid gap-4 md:grid-cols-2">
          {FAQ.map((key) => (
            <Card key={key} className="p-5">
              <dt className="font-medium text-gray-900 dark:text-gray-100">{t(`faq.${key}.q`)}</dt>
              <dd className="mt-2 text-sm text-gray-600 dark:text-gray-400">{t(`faq.${key}.a`)}</dd>
            </Card>
          ))}
        </dl>
      </section>

      <Card className="flex flex-wrap items-center justify-between gap-4 p-6">
        <div>
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('sales.title')}</h2>
          <p className="text-sm text-gray-600 dark:text-gray-400">{t('sales.text')}</p>
        </div>
        <a
          href={`mailto:${SALES_EMAIL}`}
          className="inline-flex h-10 items-center rounded-lg bg-gray-900 px-4 text-sm font-medium text-white hover:bg-gray-700 dark:bg-gray-100 dark:text-gray-900"
        >
          {t('sales.contact')}
        </a>
      </Card>

      <ConfirmDialog
        open={confirmCancel}
        variant="danger"
        title={t('cancelDialog.title')}
        message={
          <div className="space-y-2">
            <p>{t('cancelDialog.message')}</p>
            <PlanChangeQuestion subscription={subscription} plans={plans.data} target="free" />
          </div>
        }
        confirmLabel={t('cancelDialog.confirm')}
        cancelLabel={t('cancelDialog.keep')}
        closeLabel={t('close')}
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => setConfirmCancel(false)}
      />
      <ConfirmDialog
        open={changeTo !== null}
        title={t('planChange.title', { name: changeTo?.name ?? '' })}
        message={
          changeTo && (
            <PlanChangeQuestion
              subscription={subscription}
              plans={plans.data}
              target={changeTo.id}
              promptPay={promptPay}
              onPromptPay={setPromptPay}
            />
          )
        }
        confirmLabel={t('planChange.confirm', { name: changeTo?.name ?? '' })}
        cancelLabel={t('planChange.keep')}
        closeLabel={t('close')}
        busy={upgrade.isPending}
        onConfirm={() => {
          if (!changeTo) return;
          const currency = pageCurrency(i18n.language);
          const paidByPromptPay = promptPay && currency === 'THB' && subscription.provider === 'stripe';
          upgrade.mutate({ planId: changeTo.id, currency, ...(paidByPromptPay ? { paymentMethod: 'promptpay' } : {}) });
        }}
        onCancel={() => setChangeTo(null)}
      />
    </div>
  );
}
