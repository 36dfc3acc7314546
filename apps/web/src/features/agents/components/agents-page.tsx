import { hasRole, type CreatedApiToken } from '@adpilot/contracts';
import { Copy, Info, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentWorkspace } from '../../../api/workspaces.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCopy } from '../hooks/use-copy.ts';
import { mcpEndpoint } from '../lib/client-configs.ts';
import { AgentPolicyCard } from './agent-policy-card.tsx';
import { CreateTokenDialog } from './create-token-dialog.tsx';
import { TokenCreatedDialog } from './token-created-dialog.tsx';
import { TokenList } from './token-list.tsx';

/**
 * Settings → AI agents & API tokens: the MCP endpoint's address, the workspace's tokens and connected apps, and its
 * agent policy. Admins and owners make tokens and change the policy; other members see their own connected apps.
 */
export function AgentsPage() {
  const { t } = useTranslation('agents');
  const { workspace } = useCurrentWorkspace();
  const copy = useCopy();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const endpoint = mcpEndpoint(window.location.origin);

  if (!workspace)
    return (
      <div className="flex justify-center py-16">
        <Spinner size="lg" />
      </div>
    );
  const manages = hasRole(workspace.role, 'admin');

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          manages && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" className="size-4" />
              {t('tokens.create')}
            </Button>
          )
        }
      />
      {!manages && (
        <Card role="note" className="flex items-start gap-3 p-4 text-sm text-gray-700 dark:text-gray-300">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-blue-600 dark:text-blue-400" />
          <p>{t('readOnly')}</p>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t('endpoint.title')}</CardTitle>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('endpoint.description')}</p>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code
            data-testid="mcp-endpoint"
            className="min-w-0 flex-1 rounded-lg bg-gray-100 px-3 py-2 font-mono text-sm break-all text-gray-900 dark:bg-gray-800 dark:text-gray-100"
          >
            {endpoint}
          </code>
          <Button variant="secondary" onClick={() => void copy(endpoint, t('endpoint.copied'))}>
            <Copy aria-hidden="true" className="size-4" />
            {t('endpoint.copy')}
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('tokens.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <TokenList workspaceId={workspace.id} />
        </CardContent>
      </Card>
      <AgentPolicyCard workspaceId={workspace.id} canEdit={manages} />
      <CreateTokenDialog
        workspaceId={workspace.id}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
      <TokenCreatedDialog created={created} endpoint={endpoint} onClose={() => setCreated(null)} />
    </div>
  );
}
