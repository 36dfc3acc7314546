import { Info } from 'lucide-react';
import { createElement, useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PlanLimitMessage, usePlanLimitNotice } from '../../../components/plan-limit.tsx';
import { useCompleteFacebookConnect } from '../api/complete-facebook-connect.ts';

/** What Facebook (or the sandbox consent page) appends when it sends the user back. */
const RETURN_PARAMS = ['code', 'state', 'error', 'error_code', 'error_reason', 'error_description'];
/** The dashboard's "Connect Ad Account" quick action links here with this flag. */
const OPEN_CONNECT_PARAM = 'connect';
/** One toast slot for the connection outcome, so a repeated effect can never stack two toasts. */
const CONNECT_TOAST_ID = 'facebook-connect';

/**
 * Facebook's answer when the person pressed Cancel on the consent screen (the sandbox's consent page answers the
 * same): not a failure, so it is told as a neutral notice.
 */
export function consentCancelled(params: URLSearchParams): boolean {
  return params.get('error') === 'access_denied' || params.get('error_reason') === 'user_denied';
}

/**
 * Acts on what the address asks for, then removes it (replace, same path) so that a reload or the Back
 * button never repeats it: `?connect=1` opens the connect modal; `?code&state` is the return from Facebook
 * and is exchanged for the accounts; `?error` means the user cancelled on the consent screen.
 * Returns whether the code exchange is still running.
 */
export function useConnectAddress(openConnectModal: () => void): { completing: boolean } {
  const { t } = useTranslation('ad-accounts');
  const planLimit = usePlanLimitNotice();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // A code is single-use: StrictMode's second effect run (same search string) must not post it again.
  const handledSearch = useRef<string | null>(null);

  const complete = useCompleteFacebookConnect({
    onSuccess: ({ connectedAccounts, leftOutAccounts, adAccountLimit }) => {
      toast.success(t('toast.connected', { count: connectedAccounts.length }), { id: CONNECT_TOAST_ID });
      // The plan had no room for these: name them, and say how to make room (disconnect one, or upgrade).
      if (leftOutAccounts.length > 0) {
        const names = leftOutAccounts.map((account) => account.facebook_account_name).join(', ');
        toast(
          createElement(PlanLimitMessage, {
            text: t('toast.leftOut', { names, count: adAccountLimit }),
            link: t('subscription:upgradePath'),
          }),
          {
            id: `${CONNECT_TOAST_ID}-left-out`,
            duration: 10_000,
          },
        );
      }
    },
    onError: (error) => {
      toast.error(planLimit(error) ?? t('toast.connectFailed'), { id: CONNECT_TOAST_ID });
    },
  });
  const { mutate } = complete;

  useEffect(() => {
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const state = params.get('state');
    const returned = Boolean(code && state) || params.has('error');
    const wantsConnect = params.has(OPEN_CONNECT_PARAM);
    if (!returned && !wantsConnect) {
      // The address is clean again, so the same request arriving later (say a second ?connect=1) is new.
      handledSearch.current = null;
      return;
    }
    if (handledSearch.current === search) return;
    handledSearch.current = search;

    if (code && state) mutate({ code, state });
    else if (returned && consentCancelled(params))
      toast(t('connectCancelled'), {
        id: CONNECT_TOAST_ID,
        icon: createElement(Info, { 'aria-hidden': true, className: 'size-5 shrink-0 text-blue-600' }),
      });
    else if (returned) toast.error(t('toast.connectFailed'), { id: CONNECT_TOAST_ID });
    if (wantsConnect) openConnectModal();

    for (const name of [...RETURN_PARAMS, OPEN_CONNECT_PARAM]) params.delete(name);
    const rest = params.toString();
    void navigate({ pathname, search: rest ? `?${rest}` : '' }, { replace: true });
  }, [search, pathname, navigate, mutate, openConnectModal, t]);

  return { completing: complete.isPending };
}
