// The agents module's public face: what the rest of the server may import from it (ADR 0171).
export { agentSignedActivity } from './agent-actor.ts';
export type { AgentActor } from './agent-actor.ts';
export type { AgentChange, AgentPolicyService } from './agent-policy.service.ts';
export { createAgentsModule } from './agents.module.ts';
export type { AgentCredential, ApiTokensService } from './api-tokens.service.ts';
