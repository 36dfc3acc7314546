import { z } from 'zod';
import type { AdAccountsService } from '../../ad-accounts/index.ts';
import { defineTool, readOnly, type ToolDefinition } from '../../../lib/tool-registry.ts';

export interface AccountToolServices {
  adAccounts: Pick<AdAccountsService, 'list'>;
}

export function accountTools(services: AccountToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_ad_accounts',
      title: 'List ad accounts',
      description: 'The workspace’s connected Meta ad accounts: ids, currency, time zone, sync state, read-only or not',
      scope: 'read',
      input: z.strictObject({}),
      annotations: readOnly,
      run: async ({ scope }) => {
        const accounts = await services.adAccounts.list(scope);
        return {
          accounts: accounts.map((account) => ({
            id: account.id,
            name: account.facebook_account_name,
            metaAccountId: account.facebook_account_id,
            status: account.account_status,
            currency: account.currency,
            timezone: account.timezone,
            lastSync: account.last_sync,
            syncStatus: account.sync_status,
            readOnly: account.read_only,
            needsReauth: account.needs_reauth,
          })),
        };
      },
    }),
  ];
}
