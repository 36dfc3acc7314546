// The notifications module's public face: what the rest of the server may import from it (ADR 0171).
export type { WebhookRetry } from './notifications.jobs.ts';
export { createNotificationsModule, nudgingActivity } from './notifications.module.ts';
export type { NotificationsService } from './notifications.service.ts';
export type { WebhookAddressPolicy } from './webhook-address.ts';
