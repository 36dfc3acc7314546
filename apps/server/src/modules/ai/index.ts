// The ai module's public face: what the rest of the server may import from it (ADR 0171).
export type { AiQuota } from './ai-quota.ts';
export { createAiModule } from './ai.module.ts';
export type { AiOptions } from './ai.module.ts';
export type { AiService } from './ai.service.ts';
