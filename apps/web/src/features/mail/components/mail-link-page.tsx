import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAnswerMailLink, useMailLink } from '../api/mail-links.ts';

/**
 * Opened from an outbound mail's link, `/mail/confirm?token=…` or `/mail/unsubscribe?token=…` (ADR 0092): it says
 * which workspace's mail and which address the link is about, and acts only when the person presses the button
 * (mail scanners open links; they do not press buttons). Signed in or not.
 */
export function MailLinkPage({ purpose }: { purpose: 'confirm' | 'unsubscribe' }) {
  const { t } = useTranslation('mail');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const link = useMailLink(token);
  const answer = useAnswerMailLink(purpose);
  const invalid = !token || (link.error instanceof ApiError && link.error.status === 400);
  const preview = link.data;

  return (
    <div className="mx-auto max-w-md rounded-xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-800 dark:bg-gray-900">
      <h1 className="text-2xl font-semibold text-gray-900 dark:text-gray-100">{t(`${purpose}.title`)}</h1>
      <div className="mt-6 space-y-4 text-sm text-gray-700 dark:text-gray-300">
        {invalid ? (
          <p role="alert">{t('invalid')}</p>
        ) : link.isError ? (
          <p role="alert">{t('loadFailed')}</p>
        ) : !preview ? (
          <p className="flex items-center gap-2">
            <Spinner /> {t('loading')}
          </p>
        ) : answer.isSuccess ? (
          <p role="status">{t(`${purpose}.done`, { workspace: preview.workspaceName, email: preview.email })}</p>
        ) : (
          <>
            <p>{t(`${purpose}.question`, { workspace: preview.workspaceName, email: preview.email })}</p>
            {answer.isError ? <p role="alert">{t('failed')}</p> : null}
            <Button onClick={() => answer.mutate({ token: token! })} disabled={answer.isPending}>
              {t(`${purpose}.action`)}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}

export function MailConfirmPage() {
  return <MailLinkPage purpose="confirm" />;
}

export function MailUnsubscribePage() {
  return <MailLinkPage purpose="unsubscribe" />;
}
