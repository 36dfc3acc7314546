import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** What a session holds open: the SDK's transport (and server), closed together. */
export interface SessionParts {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
}

interface Entry {
  credentialId: string;
  parts: SessionParts;
  lastSeen: number;
}

export interface McpSessionLimits {
  /** A session nothing was heard from for this long is closed (the client starts a new one, as MCP asks). */
  idleMs: number;
  /** Open sessions one credential may hold in this process; a new one beyond closes its oldest. */
  perCredential: number;
}

/**
 * The MCP sessions this process holds (ADR 0152), each bound to the credential that opened it: another credential
 * naming its id finds nothing, and revoking the credential closes every session of it at once, its open streams
 * included. Sessions live in the process that initialised them; a request another process receives is answered
 * 404, and the client initialises again there, as the transport specification has it.
 */
export class McpSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: McpSessionLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Registers a session once its transport gave it an id; the credential's oldest goes when it holds too many. */
  add(id: string, credentialId: string, parts: SessionParts): void {
    const own = [...this.entries].filter(([, entry]) => entry.credentialId === credentialId);
    for (const [oldId] of own.slice(0, Math.max(0, own.length - this.limits.perCredential + 1))) this.end(oldId);
    this.entries.set(id, { credentialId, parts, lastSeen: this.now() });
  }

  /** The session, if this credential opened it; marks it seen. */
  find(id: string, credentialId: string): SessionParts | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.credentialId !== credentialId) return undefined;
    entry.lastSeen = this.now();
    return entry.parts;
  }

  /** Forgets a session its transport closed (a DELETE, or the client gone). */
  forget(id: string): void {
    this.entries.delete(id);
  }

  /** Closes every session of a credential (revoked): its streams end and its ids answer 404 from now on. */
  endCredential(credentialId: string): number {
    const ids = [...this.entries].filter(([, entry]) => entry.credentialId === credentialId).map(([id]) => id);
    for (const id of ids) this.end(id);
    return ids.length;
  }

  /** Closes the sessions idle past the limit; the periodic sweep's work. */
  sweep(): number {
    const cutoff = this.now() - this.limits.idleMs;
    const idle = [...this.entries].filter(([, entry]) => entry.lastSeen < cutoff).map(([id]) => id);
    for (const id of idle) this.end(id);
    return idle.length;
  }

  count(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map((entry) => entry.parts.close()));
  }

  private end(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    void entry.parts.close().catch(() => undefined);
  }
}
