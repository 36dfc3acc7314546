// The entities module's public face: what the rest of the server may import from it (ADR 0171).
export { createEntitiesModule } from './entities.module.ts';
export type { EntitiesService } from './entities.service.ts';
export type { ManualActionsService, ManualActor, ManualMode } from './manual-actions.service.ts';
