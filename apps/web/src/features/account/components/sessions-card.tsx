import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useServerMessage } from '../../../lib/server-message.ts';
import { useAccountSessions, useEndSession } from '../api/account.ts';

/** The browsers signed in to the account, each with "sign out" but this one. */
export function SessionsCard({ timeZone }: { timeZone: string }) {
  const { t, i18n } = useTranslation('account');
  const serverMessage = useServerMessage();
  const sessions = useAccountSessions();
  const end = useEndSession();
  const language = i18n.resolvedLanguage ?? 'en';
  const when = (instant: string) => formatDateTime(instant, language, { timeZone });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('sessions.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        {sessions.isError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {t('sessions.loadFailed')}
          </p>
        )}
        {sessions.isPending && <Spinner label={t('loading')} />}
        <ul className="divide-y divide-gray-200 dark:divide-gray-800">
          {sessions.data?.map((session) => (
            <li key={session.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="text-sm font-medium break-words text-gray-900 dark:text-gray-100">
                  {session.device ?? t('sessions.unknownDevice')}
                  {session.current && (
                    <span className="ml-2 rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-800 dark:bg-green-900 dark:text-green-200">
                      {t('sessions.current')}
                    </span>
                  )}
                </p>
                <p className="text-xs text-gray-600 dark:text-gray-400">
                  {session.address ?? t('sessions.unknownAddress')} ·{' '}
                  {t('sessions.lastSeen', { when: when(session.lastSeenAt) })} ·{' '}
                  {t('sessions.signedIn', { when: when(session.signedInAt) })}
                </p>
              </div>
              {!session.current && (
                <Button
                  variant="secondary"
                  size="sm"
                  loading={end.isPending && end.variables === session.id}
                  onClick={() =>
                    end.mutate(session.id, {
                      onSuccess: () => toast.success(t('sessions.ended')),
                      onError: (error) => toast.error(serverMessage(error, t('sessions.endFailed'))),
                    })
                  }
                >
                  {t('sessions.signOut')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
