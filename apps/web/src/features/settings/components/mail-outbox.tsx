import type { OutboxMail } from '@adpilot/contracts';
import { Paperclip } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useFormat } from '../../../lib/format.ts';
import { useOutbox } from '../api/outbox.ts';

function Attachments({ mail }: { mail: OutboxMail }) {
  const { t } = useTranslation('settings');
  const format = useFormat();
  if (mail.attachments.length === 0)
    return <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">{t('outbox.noAttachments')}</p>;
  return (
    <ul aria-label={t('outbox.attachments')} className="mt-2 space-y-1">
      {mail.attachments.map((attachment, index) => (
        <li key={`${attachment.fileName}-${index}`} className="flex items-start gap-2 text-sm">
          <Paperclip aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500 dark:text-gray-400" />
          <span className="min-w-0">
            <span className="font-medium wrap-anywhere text-gray-900 dark:text-gray-100">{attachment.fileName}</span>{' '}
            <span className="text-gray-600 dark:text-gray-400">
              ({t('outbox.attachment', { type: attachment.contentType, size: format.bytes(attachment.size) })})
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Settings → Mail outbox: what the instance wrote instead of sending, newest first, with what each carried. */
export function MailOutbox() {
  const { t } = useTranslation('settings');
  const format = useFormat();
  const outbox = useOutbox();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('outbox.title')}</CardTitle>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('outbox.description')}</p>
      </CardHeader>
      <CardContent>
        {outbox.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label={t('outbox.loading')} />
          </div>
        ) : outbox.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {t('outbox.loadFailed')}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void outbox.refetch()}>
              {t('outbox.retry')}
            </Button>
          </div>
        ) : outbox.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-gray-600 dark:text-gray-400">{t('outbox.empty')}</p>
        ) : (
          <ul aria-label={t('outbox.list')} className="divide-y divide-gray-100 dark:divide-gray-800">
            {outbox.data.map((mail) => (
              <li key={mail.id} className="py-4 first:pt-0 last:pb-0">
                <article aria-labelledby={`mail-${mail.id}`}>
                  <h3 id={`mail-${mail.id}`} className="font-medium wrap-anywhere text-gray-900 dark:text-gray-100">
                    {mail.subject}
                  </h3>
                  <p className="text-sm wrap-anywhere text-gray-700 dark:text-gray-300">
                    {t('outbox.to', { address: mail.to })}
                  </p>
                  <p className="text-xs text-gray-600 dark:text-gray-400">
                    {t('outbox.created', { date: format.dateTime(mail.createdAt) })} ·{' '}
                    {t('outbox.expires', { date: format.dateTime(mail.expiresAt) })}
                  </p>
                  <Attachments mail={mail} />
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer text-blue-600 hover:underline dark:text-blue-400">
                      {t('outbox.showText')}
                    </summary>
                    <pre className="mt-2 font-sans text-sm whitespace-pre-wrap wrap-anywhere text-gray-800 dark:text-gray-200">
                      {mail.text}
                    </pre>
                  </details>
                </article>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
