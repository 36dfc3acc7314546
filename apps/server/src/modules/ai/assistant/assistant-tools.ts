import type { EntityActionItem, SuggestedChange } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import { inputJsonSchema, ToolError, type ToolDefinition, type ToolRegistry } from '../../../lib/tool-registry.ts';
import { AppError } from '../../../lib/app-error.ts';

/**
 * The read tools the assistant's model is given (issue 29), by name: the same definitions the MCP endpoint serves
 * (ADR 0155). The model is given `propose_changes` too, with the registry's schema, but in the assistant it writes
 * nothing: its changes become suggestions the person confirms (ADR 0156).
 */
export const ASSISTANT_READ_TOOLS = [
  'list_ad_accounts',
  'query_entities',
  'get_entity',
  'compare_periods',
  'list_rules',
  'rule_impact',
  'list_activity',
  'list_proposals',
] as const;

/** The most a tool's answer may weigh in the model's context (the registry's own ceiling is larger, for MCP). */
export const ASSISTANT_RESULT_MAX_BYTES = 16 * 1024;

export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolAnswer {
  ok: boolean;
  /** The answer as JSON text (or the refusal's words): what the model reads. */
  text: string;
  /** The parsed answer, for the built-in analyst. */
  value?: Record<string, unknown>;
  /** `propose_changes`: the changes that would apply, shown to the person with a confirm button. */
  suggestions?: SuggestedChange[];
}

/** The change tool's name in the registry, and what the assistant does with its calls. */
export const PROPOSE_TOOL = 'propose_changes';
export type Suggest = (
  scope: TenantScope,
  changes: { change: EntityActionItem; reason: string }[],
) => Promise<SuggestedChange[]>;

/**
 * The assistant's tool box: the registry's definitions for every name it has, the interim ones (explorer-tools.ts)
 * for the names it has not yet. A call validates its input with the tool's own schema and runs as the member who
 * asked; its answer is bounded. Nothing here writes: every tool given is read-only.
 */
export class AssistantTools {
  private readonly tools: ToolDefinition[];
  /** The registry's `propose_changes`, for its schema only: its handler (an agent's write) is never run here. */
  private readonly propose: ToolDefinition | undefined;

  constructor(
    registry: ToolRegistry | undefined,
    interim: readonly ToolDefinition[],
    private readonly suggest?: Suggest,
  ) {
    this.tools = ASSISTANT_READ_TOOLS.map((name) => registry?.get(name) ?? interim.find((t) => t.name === name)).filter(
      (tool): tool is ToolDefinition => tool !== undefined && tool.annotations.readOnlyHint,
    );
    this.propose = suggest ? registry?.get(PROPOSE_TOOL) : undefined;
  }

  private offered(): ToolDefinition[] {
    return this.propose ? [...this.tools, this.propose] : this.tools;
  }

  specs(): ToolSpec[] {
    return this.offered().map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: inputJsonSchema(tool),
    }));
  }

  names(): string[] {
    return this.offered().map((tool) => tool.name);
  }

  async call(scope: TenantScope, name: string, args: unknown): Promise<ToolAnswer> {
    const tool = this.offered().find((t) => t.name === name);
    if (!tool)
      return { ok: false, text: `Unknown tool: ${String(name).slice(0, 64)}. Use one of ${this.names().join(', ')}` };
    const input = tool.input.safeParse(args ?? {});
    if (!input.success) {
      const issues = input.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
        .join('; ');
      return { ok: false, text: `Invalid arguments: ${issues}` };
    }
    if (tool === this.propose) return this.suggestFrom(scope, input.data as ProposeInput);
    try {
      const value = await tool.run({ scope }, input.data);
      const text = JSON.stringify(value);
      if (Buffer.byteLength(text) > ASSISTANT_RESULT_MAX_BYTES)
        return { ok: false, text: 'The answer is too large: ask for a smaller page (limit) or a narrower filter' };
      return { ok: true, text, value };
    } catch (error) {
      if (error instanceof ToolError) return { ok: false, text: error.message };
      if (error instanceof AppError && error.statusCode < 500) return { ok: false, text: error.message };
      throw error;
    }
  }

  /** The model's `propose_changes`: the changes that would apply become suggestions; it is told nothing was made. */
  private async suggestFrom(scope: TenantScope, input: ProposeInput): Promise<ToolAnswer> {
    const suggestions = await this.suggest!(
      scope,
      input.changes.map((change) => ({ change: change as EntityActionItem, reason: input.reason })),
    );
    const shown = suggestions.map((s) => ({ entityId: s.change.entityId, name: s.name, from: s.from, to: s.to }));
    return {
      ok: true,
      text: JSON.stringify({
        shownToPerson: shown,
        notShown: input.changes.length - shown.length,
        note: 'Nothing was changed: the person sees these with from → to and confirms each one themselves',
      }),
      suggestions,
    };
  }
}

interface ProposeInput {
  changes: { entityId: string; type: EntityActionItem['type']; amount?: number; percent?: number }[];
  reason: string;
}
