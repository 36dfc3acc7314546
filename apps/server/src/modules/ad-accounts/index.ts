// The ad-accounts module's public face: what the rest of the server may import from it (ADR 0171).
export type { AdAccountSyncService } from './ad-account-sync.service.ts';
export { createAdAccountSync, createAdAccountsModule } from './ad-accounts.module.ts';
export type { AdAccountQuota, AdAccountsService, SyncScheduler } from './ad-accounts.service.ts';
export { MIRROR_REVISED_DAYS } from './ad-mirror.service.ts';
export type {
  AdMirrorService,
  EntityKey,
  EntityRange,
  MirrorDailyRow,
  ReportAccount,
  ReportRow,
} from './ad-mirror.service.ts';
export type {
  AccountWindow,
  EntityFilter,
  EntityReadRow,
  EntityReadService,
  FigureSums,
} from './entity-read.service.ts';
export type { OwnWrite } from './external-changes.ts';
