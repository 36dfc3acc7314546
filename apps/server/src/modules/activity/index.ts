// The activity module's public face: what the rest of the server may import from it (ADR 0171).
export { createActivityModule } from './activity.module.ts';
export { ActivityRepository } from './activity.repository.ts';
export type { NewActivity } from './activity.repository.ts';
export type { ActivityService } from './activity.service.ts';
export { endAllEventStreams } from './event-stream.ts';
