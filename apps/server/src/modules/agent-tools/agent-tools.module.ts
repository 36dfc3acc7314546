import { accountTools, type AccountToolServices } from './tools/account-tools.ts';
import { activityTools, type ActivityToolServices } from './tools/activity-tools.ts';
import { changeTools, type ChangeToolServices } from './tools/change-tools.ts';
import { entityTools, type EntityToolServices } from './tools/entity-tools.ts';
import { proposalTools, type ProposalToolServices } from './tools/proposal-tools.ts';
import { ruleDraftingTools, ruleTools, type RuleToolServices } from './tools/rule-tools.ts';
import { ToolCalls, type ToolCallDeps } from './tool-calls.ts';
import { ToolRegistry } from '../../lib/tool-registry.ts';

export type AgentToolsDeps = AccountToolServices &
  RuleToolServices &
  ActivityToolServices &
  ProposalToolServices &
  EntityToolServices &
  ChangeToolServices &
  Omit<ToolCallDeps, 'registry'>;

/**
 * The agents' tools, defined once (ADR 0155): the MCP endpoint serves them, and the AI assistant's model is
 * handed the read tools and `propose_changes`'s schema from the same registry. Each tool calls the services a person's
 * request would, in the workspace and as the member its credential belongs to. Its public API: `registry`, and
 * `calls`, the one way a tool is called (scope, input, handler as the agent, bounded answer, log entry, metrics).
 */
export function createAgentToolsModule(deps: AgentToolsDeps) {
  const registry = new ToolRegistry([
    ...accountTools(deps),
    ...entityTools(deps),
    ...ruleTools(deps),
    ...activityTools(deps),
    ...proposalTools(deps),
    ...ruleDraftingTools(deps),
    ...changeTools(deps),
  ]);
  return { registry, calls: new ToolCalls({ ...deps, registry }) };
}
