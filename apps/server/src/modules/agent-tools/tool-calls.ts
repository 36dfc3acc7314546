import { AGENT_MESSAGES, describeActivity, type AgentScope } from '@adpilot/contracts';
import type { TenantScope, Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import type { ZodError } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { ActivityRepository } from '../activity/index.ts';
import type { AgentActor } from '../agents/index.ts';
import {
  boundedText,
  inputJsonSchema,
  ToolError,
  type ToolDefinition,
  type ToolRegistry,
} from '../../lib/tool-registry.ts';

/** Who calls a tool: the credential, the workspace and member it acts as, and the scopes it may use now. */
export interface ToolCaller {
  credentialId: string;
  name: string;
  scope: TenantScope;
  scopes: AgentScope[];
}

/** How a call ended: answered, refused for its scope, bad input, a refusal of the tool, a bug, or over the limit. */
export type ToolOutcome = 'ok' | 'refused' | 'invalid' | 'failed' | 'error' | 'rate_limited';

/** Told of every tool call once it ended (the metrics): never its arguments or its answer. */
export interface ToolCallObserver {
  toolCall(event: { tool: string; outcome: ToolOutcome; seconds: number }): void;
}

/** MCP's result of a tool call: the answer as JSON text, or an error the agent reads and may act on. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

export interface ToolCallDeps {
  registry: ToolRegistry;
  transactions: Transactions;
  activity: Pick<ActivityRepository, 'insert'>;
  /** Runs work as the agent, so every entry written meanwhile is signed with its credential (the agents module). */
  actingAs: <T>(actor: AgentActor, work: () => Promise<T>) => Promise<T>;
  observer?: ToolCallObserver;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** A tool as a client lists it (MCP's Tool): its input schema derived from the zod one. */
export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolDefinition['annotations'];
}

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

function fieldMessages(error: ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}

/**
 * One tool call (ADR 0152, 0155): the scope first (a missing one is named), then the input against the tool's
 * schema, then the handler as the agent, its answer bounded. Every call is logged in the workspace's activity,
 * signed by the credential, and counted; the arguments and answers are neither logged nor counted.
 */
export class ToolCalls {
  private readonly descriptors: ReadonlyMap<string, ToolDescriptor>;

  constructor(private readonly deps: ToolCallDeps) {
    this.descriptors = new Map(
      deps.registry.all().map((tool) => [
        tool.name,
        {
          name: tool.name,
          title: tool.title,
          description: tool.description,
          inputSchema: inputJsonSchema(tool),
          annotations: tool.annotations,
        },
      ]),
    );
  }

  /** The tools a caller with these scopes may see (a tool it may not call is not in its list at all). */
  visible(scopes: readonly AgentScope[]): ToolDescriptor[] {
    return this.deps.registry.visibleTo(scopes).map((tool) => this.descriptors.get(tool.name)!);
  }

  has(name: string): boolean {
    return this.deps.registry.get(name) !== undefined;
  }

  /** Calls a tool of the registry (`has` says which are); a name it does not know is a bug in the caller. */
  async call(caller: ToolCaller, name: string, args: unknown): Promise<ToolResult> {
    const tool = this.deps.registry.get(name);
    if (!tool) throw new Error(`Unknown tool: ${name}`);
    const started = performance.now();
    const actor: AgentActor = { credentialId: caller.credentialId, name: caller.name, via: 'mcp' };
    const finish = async (outcome: ToolOutcome, result: ToolResult): Promise<ToolResult> => {
      await this.record(caller, actor, name, outcome, tool.scope);
      this.deps.observer?.toolCall({ tool: name, outcome, seconds: (performance.now() - started) / 1000 });
      return result;
    };

    if (!caller.scopes.includes(tool.scope))
      return finish('refused', errorResult(AGENT_MESSAGES.scopeMissing(tool.scope)));
    const input = tool.input.safeParse(args ?? {});
    if (!input.success) return finish('invalid', errorResult(`Invalid arguments: ${fieldMessages(input.error)}`));
    try {
      const answer = await this.deps.actingAs(actor, () =>
        tool.run({ scope: caller.scope, agent: { credentialId: caller.credentialId, name: caller.name } }, input.data),
      );
      return finish('ok', { content: [{ type: 'text', text: boundedText(answer) }] });
    } catch (error) {
      if (error instanceof ToolError) return finish('failed', errorResult(error.message));
      if (error instanceof AppError && error.statusCode < 500)
        return finish('failed', errorResult(`${error.message} (${error.code})`));
      this.deps.log.error({ err: error, tool: name }, 'tool call failed');
      return finish('error', errorResult('The tool failed on AdPilot’s side; try again later'));
    }
  }

  /** The call's entry in the workspace's log, signed by the agent; a failure to write it never fails the call. */
  private async record(caller: ToolCaller, actor: AgentActor, tool: string, outcome: ToolOutcome, scope: AgentScope) {
    const code =
      outcome === 'ok' ? 'agent_tool_called' : outcome === 'refused' ? 'agent_tool_refused' : 'agent_tool_failed';
    const params: Record<string, string> = outcome === 'refused' ? { tool, scope } : { tool };
    try {
      await this.deps.actingAs(actor, () =>
        this.deps.transactions.tenant(caller.scope, (tx) =>
          this.deps.activity.insert(tx, {
            level: outcome === 'ok' ? 'info' : 'warning',
            category: 'agent',
            description: describeActivity(code, params),
            metadata: { code, params },
          }),
        ),
      );
    } catch (error) {
      this.deps.log.error({ err: error, tool }, 'could not log a tool call');
    }
  }
}
