import type { AdAccount } from '@adpilot/contracts';
import { fail as sharedFail, type Reply } from '../../../test/fake-api.ts';

export { fakeApi, ok } from '../../../test/fake-api.ts';

/** An error reply by status alone: 5xx answers INTERNAL_ERROR, anything else BAD_REQUEST. */
export const fail = (status: number, message = 'Something failed'): Reply =>
  sharedFail(status, status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST', message);

let sequence = 0;

export function buildAdAccount(overrides: Partial<AdAccount> = {}): AdAccount {
  sequence += 1;
  const n = String(sequence).padStart(3, '0');
  return {
    id: `00000000-0000-4000-8000-000000000${n}`,
    facebook_account_id: `act_1000${n}`,
    facebook_account_name: `Account ${n}`,
    account_status: 'active',
    meta_account_status: 1,
    status_reason: null,
    currency: 'USD',
    timezone: 'America/Los_Angeles',
    last_sync: null,
    sync_status: 'idle',
    last_sync_error: null,
    needs_reauth: false,
    is_sandbox: false,
    missing_scopes: [],
    read_only: false,
    auto_sync: true,
    anomaly_sensitivity: 'medium',
    anomaly_muted_until: null,
    token_expires_at: null,
    token_kind: 'user',
    api_version: 'v27.0',
    api_version_ends_at: null,
    backfill_days: 90,
    history: { from: '2024-10-03', days: 90, target_days: 90, complete: true },
    ads_manager_url: `https://adsmanager.facebook.com/adsmanager/manage/campaigns?act=1000${n}`,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
