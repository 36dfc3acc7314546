import type { Transactions } from '@adpilot/db';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { registeredJob } from '../../jobs/job-registry.ts';
import type { OAuthRepository } from './oauth/oauth.repository.ts';

export const AGENTS_PURGE_JOB = 'agents-purge';
/** A registration nobody consented to is kept this long (a member may still be on the consent page). */
const UNGRANTED_CLIENT_DAYS = 30;

export interface AgentsPurgeDeps {
  transactions: Transactions;
  repository: OAuthRepository;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Spent and expired authorization codes, and client registrations nobody ever granted a workspace. */
export async function purgeAgentLeftovers(deps: AgentsPurgeDeps): Promise<{ codes: number; clients: number }> {
  const now = deps.now();
  const purged = await deps.transactions.system('agents purge', async (tx) => ({
    codes: await deps.repository.purgeCodes(tx, now),
    clients: await deps.repository.purgeUngrantedClients(
      tx,
      new Date(now.getTime() - UNGRANTED_CLIENT_DAYS * 86_400_000),
    ),
  }));
  deps.log.info(purged, 'purged spent OAuth codes and ungranted clients');
  return purged;
}

export function defineAgentsJobs(queue: JobQueue, deps: AgentsPurgeDeps): void {
  queue.define({
    ...registeredJob(AGENTS_PURGE_JOB),
    payload: z.object({}).loose(),
    retryLimit: 1,
    handler: async () => {
      await purgeAgentLeftovers(deps);
    },
  });
}
