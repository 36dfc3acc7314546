import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActivityRepository } from '../activity/index.ts';

/** The agent a unit of work acts for: its credential (an API token or an OAuth grant), as the log signs it. */
export interface AgentActor {
  credentialId: string;
  /** The credential's name when the call began (the token's, or the OAuth client's registered name). */
  name: string;
  via: 'mcp';
}

const acting = new AsyncLocalStorage<AgentActor>();

/**
 * Runs `work` as the agent: every activity entry written meanwhile, by whichever module (a rule created, a
 * proposal made), is signed with the credential instead of being left to look like its creator's own (ADR 0152).
 * The actor comes from the authenticated credential, never from anything the agent sent.
 */
export function actingAs<T>(actor: AgentActor, work: () => Promise<T>): Promise<T> {
  return acting.run(actor, work);
}

/** The agent the current call acts for, if any. */
export function currentAgent(): AgentActor | undefined {
  return acting.getStore();
}

/**
 * The one activity writer, signing each entry written inside `actingAs` with its agent (`metadata.agent`); the
 * entry's `actor_user_id` stays the credential's creator, whose role the credential acts with.
 */
export function agentSignedActivity(inner: ActivityRepository): ActivityRepository {
  const wrapped = Object.create(inner) as ActivityRepository;
  wrapped.insert = (tx, entry) => {
    const agent = currentAgent();
    if (!agent) return inner.insert(tx, entry);
    return inner.insert(tx, {
      ...entry,
      metadata: { ...entry.metadata, agent: { credentialId: agent.credentialId, name: agent.name, via: agent.via } },
    });
  };
  return wrapped;
}
