import type { AgentScope } from '@adpilot/contracts';
import type { TenantScope } from '@adpilot/db';
import { z } from 'zod';

/**
 * The tools agents call (ADR 0155): defined once, served by the MCP endpoint and, later, handed to the AI assistant's
 * model (issue 29) from this same registry. Each tool is a name, a one-line description an agent can choose by, a
 * zod input schema (its JSON Schema is derived, never written twice), the scope it needs, annotations, and a
 * handler whose answer is bounded: pages with a cursor rather than dumps, and a byte ceiling no answer passes.
 */

/** Who a tool call acts for: the workspace and the member whose credential it is (capped by its scopes). */
export interface ToolContext {
  scope: TenantScope;
  /** The agent's credential when an agent calls (the ledger's actor for a change); absent for the assistant. */
  agent?: { credentialId: string; name: string };
}

export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  name: string;
  /** A short human title (clients show it in their tool lists). */
  title: string;
  /** One line an agent chooses the tool by: what it answers, and what it never does. */
  description: string;
  /** The scope a credential needs to see and call the tool. */
  scope: AgentScope;
  input: Input;
  /** MCP's hints: reads are read-only and idempotent; every tool acts only inside AdPilot (closed world). */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  run(context: ToolContext, input: z.output<Input>): Promise<Record<string, unknown>>;
}

/** The largest answer a tool gives, serialised: an agent's context is not the place for a whole account. */
export const TOOL_OUTPUT_MAX_BYTES = 48 * 1024;
/** Items a page of a list tool holds at most, and by default. */
export const PAGE_MAX = 50;
export const PAGE_DEFAULT = 20;

/** A refusal a tool answers to the agent in words (bad input, an unknown id, a plan limit, an answer too large). */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A tool definition, its input and handler types tied together. */
export function defineTool<Input extends z.ZodType>(definition: ToolDefinition<Input>): ToolDefinition<Input> {
  return definition;
}

/** The page parameters every list tool takes: how many, and where the previous page ended. */
export const pageInput = {
  limit: z.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT).describe(`Items per page (1–${PAGE_MAX})`),
  cursor: z.string().max(40).optional().describe('The nextCursor of the previous page'),
};

/** One page of `items` from the cursor (an offset written as text), with the cursor of the next page or null. */
export function pageOf<T>(items: readonly T[], limit: number, cursor: string | undefined) {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0) throw new ToolError('invalid_cursor', 'This cursor is not one of ours');
  const page = items.slice(start, start + limit);
  const next = start + limit < items.length ? String(start + limit) : null;
  return { page, nextCursor: next, total: items.length };
}

/** The registry: every tool by name, and the ones a credential's scopes let it see. */
export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();

  constructor(tools: readonly ToolDefinition[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Two tools are named ${tool.name}`);
      if (!/^[a-z][a-z_]{2,63}$/.test(tool.name)) throw new Error(`Not a tool name: ${tool.name}`);
      this.byName.set(tool.name, tool);
    }
  }

  all(): ToolDefinition[] {
    return [...this.byName.values()];
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** The tools a credential with these (effective) scopes may see, in the registry's order. */
  visibleTo(scopes: readonly AgentScope[]): ToolDefinition[] {
    return this.all().filter((tool) => scopes.includes(tool.scope));
  }
}

/** A tool's input as JSON Schema (draft 2020-12, MCP's default dialect): what an agent's client validates against. */
export function inputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  const schema = { ...z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) };
  delete schema.$schema;
  return { type: 'object', ...schema };
}

/** A tool's answer as text, or a refusal when it would pass the ceiling (the agent is told to narrow it). */
export function boundedText(result: Record<string, unknown>): string {
  const text = JSON.stringify(result);
  if (Buffer.byteLength(text) > TOOL_OUTPUT_MAX_BYTES)
    throw new ToolError('too_large', 'The answer is too large: ask for a smaller page (limit) or a narrower filter');
  return text;
}
