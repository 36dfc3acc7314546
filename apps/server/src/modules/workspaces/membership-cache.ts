import type { ChannelListener } from '@adpilot/db';
import type { WorkspaceRole } from '@adpilot/contracts';

/** A user's place in one workspace: what a request's current workspace resolves to. */
export interface Membership {
  workspaceId: string;
  role: WorkspaceRole;
  personal: boolean;
  /** The user's own personal workspace (a request without a workspace acts in it). */
  own: boolean;
}

interface Entry {
  memberships: Membership[];
  /** Epoch ms until which the entry may answer without asking the database. */
  liveUntil: number;
}

/**
 * Remembers each user's memberships, so resolving a request's workspace and role needs no round trip. Kept right
 * the way the session cache is (ADR 0014): a trigger on `workspace_members` announces the member's id on the
 * sessions channel when a membership is removed or its role changes, every process forgets that user, nothing is
 * kept while the channel is not heard, and an answer read while an eviction arrived is used but not kept. A new
 * membership needs no announcement: a workspace the cache does not know is read from the database (ADR 0070).
 */
export class MembershipCache {
  private readonly entries = new Map<string, Entry>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private generation = 0;
  private listening = false;

  constructor(
    private readonly now: () => Date,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  /** Hand this to `database.listen(SESSION_CHANNEL, …)` (beside the session cache). */
  readonly listener: ChannelListener = {
    onMessage: (userId) => this.evict(userId),
    onReset: (listening) => {
      this.listening = listening;
      this.generation += 1;
      this.entries.clear();
      for (const set of this.watchers.values()) for (const watcher of set) watcher();
    },
  };

  /**
   * The user's membership in `workspaceId` (their personal workspace when absent), or null when they are not a
   * member of it. `load` reads all of the user's memberships; an unknown workspace is read again before answering
   * null, so a membership made a moment ago is found.
   */
  async resolve(
    userId: string,
    workspaceId: string | undefined,
    load: () => Promise<Membership[]>,
  ): Promise<Membership | null> {
    const pick = (memberships: Membership[]) =>
      memberships.find((m) => (workspaceId === undefined ? m.own : m.workspaceId === workspaceId)) ?? null;
    const now = this.now().getTime();
    const hit = this.entries.get(userId);
    if (hit && hit.liveUntil > now) {
      const found = pick(hit.memberships);
      if (found) return found;
    }
    const generation = this.generation;
    const memberships = await load();
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(userId, { memberships, liveUntil: now + this.ttlMs });
    }
    return pick(memberships);
  }

  evict(userId: string): void {
    this.generation += 1;
    this.entries.delete(userId);
    for (const watcher of this.watchers.get(userId) ?? []) watcher();
  }

  /** Calls `onChange` whenever the user's memberships may have changed (open streams check again). */
  watch(userId: string, onChange: () => void): () => void {
    let set = this.watchers.get(userId);
    if (!set) this.watchers.set(userId, (set = new Set()));
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0) this.watchers.delete(userId);
    };
  }
}
