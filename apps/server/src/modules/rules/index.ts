// The rules module's public face: what the rest of the server may import from it (ADR 0171).
export type { RulePreviewService } from './runs/rule-preview.service.ts';
export type { RulePlanLimits, RulesService } from './definitions/rules.service.ts';
export { ProposalLinks } from './proposals/proposal-links.ts';
export type { ProposalsService } from './proposals/proposals.service.ts';
export { createRulesModule } from './rules.module.ts';
export type { RulesOptions } from './rules.module.ts';
export type { AgentChangesRepository } from './runs/agent-changes.repository.ts';
export type { EntityHistoryService } from './runs/entity-history.repository.ts';
export type { EntityKnowledge, EntityKnowledgeService, KnownEntity } from './runs/entity-knowledge.repository.ts';
export type { ByHandAction, ByHandKey, HandWrites } from './runs/hand-writes.ts';
export type { RuleActionObserver } from './runs/rule-executor.ts';
export type { RuleImpactService } from './runs/rule-impact.service.ts';
export type { RuleRunner } from './runs/rule-runner.ts';
