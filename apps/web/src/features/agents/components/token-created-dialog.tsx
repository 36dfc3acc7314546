import type { CreatedApiToken } from '@adpilot/contracts';
import { Copy, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useCopy } from '../hooks/use-copy.ts';
import { clientSnippet, MCP_CLIENTS, type McpClient } from '../lib/client-configs.ts';

/** The token, this once, and what each AI client needs to use it. */
export function TokenCreatedDialog({
  created,
  endpoint,
  onClose,
}: {
  created: CreatedApiToken | null;
  endpoint: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('agents');
  const copy = useCopy();
  const [client, setClient] = useState<McpClient>('claudeDesktop');
  if (!created) return null;
  const snippet = clientSnippet(client, endpoint, created.token);

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={t('created.title')}
      footer={<Button onClick={onClose}>{t('created.done')}</Button>}
    >
      <div className="space-y-5">
        <p
          role="note"
          className="flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('created.warning')}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code
            data-testid="created-token"
            className="min-w-0 flex-1 rounded-lg bg-gray-100 px-3 py-2 font-mono text-sm break-all text-gray-900 dark:bg-gray-800 dark:text-gray-100"
          >
            {created.token}
          </code>
          <Button variant="secondary" onClick={() => void copy(created.token, t('created.copied'))}>
            <Copy aria-hidden="true" className="size-4" />
            {t('created.copy')}
          </Button>
        </div>
        <section aria-labelledby="connect-client">
          <h3 id="connect-client" className="text-sm font-semibold text-gray-900 dark:text-gray-100">
            {t('created.connect')}
          </h3>
          <div role="tablist" aria-label={t('created.connect')} className="mt-2 flex flex-wrap gap-1">
            {MCP_CLIENTS.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={client === name}
                onClick={() => setClient(name)}
                className={
                  client === name
                    ? 'rounded-lg bg-blue-600 px-3 py-1.5 text-sm font-medium text-white'
                    : 'rounded-lg px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800'
                }
              >
                {t(`created.clients.${name}`)}
              </button>
            ))}
          </div>
          <div role="tabpanel" className="mt-3 space-y-2">
            <p className="text-sm text-gray-600 dark:text-gray-400">{t(`created.hints.${client}`)}</p>
            {/* Focusable, so a keyboard can scroll a long configuration (axe: scrollable-region-focusable). */}
            <pre
              tabIndex={0}
              aria-label={t(`created.clients.${client}`)}
              className="max-h-64 overflow-auto rounded-lg bg-gray-900 p-3 text-xs text-gray-100 focus-visible:outline-2 focus-visible:outline-blue-400"
            >
              <code>{snippet.text}</code>
            </pre>
            <Button size="sm" variant="secondary" onClick={() => void copy(snippet.text, t('created.snippetCopied'))}>
              <Copy aria-hidden="true" className="size-4" />
              {t('created.copySnippet')}
            </Button>
          </div>
        </section>
      </div>
    </Modal>
  );
}
