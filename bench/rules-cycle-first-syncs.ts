// One of the rule-cycle bench's setup processes (started by bench/rules-cycle-processes.ts through IPC): the first
// syncs of its share of the connected accounts, on the bench's database, through the app's own sync service and the
// real Meta client against the sandbox's process (its latency still off). A setup of 1,000 accounts in one process
// is bound by that process's one core; several such processes sync side by side, as several workers would.
import { openDatabase } from '@adpilot/db';
import { firstSyncs } from './rules-cycle-setup.ts';
import { benchContext, type GraphTarget } from './sandbox-app.ts';

export interface FirstSyncsRequest {
  graph: GraphTarget;
  databaseUrl: string;
  workspaceId: string;
  accounts: string[];
}
export type FirstSyncsAnswer =
  { type: 'synced'; accounts: number; cpuSeconds: number } | { type: 'failed'; error: string };

if (!process.send) throw new Error('bench/rules-cycle-first-syncs.ts runs as a child with an IPC channel');
const send = (answer: FirstSyncsAnswer) =>
  new Promise<void>((resolve) => process.send?.(answer, undefined, undefined, () => resolve()));

process.once('message', (request: FirstSyncsRequest) => {
  void (async () => {
    const database = await openDatabase({ url: request.databaseUrl, poolSize: 8 });
    try {
      await firstSyncs(benchContext(request.graph, database), request.workspaceId, request.accounts);
      const cpu = process.cpuUsage();
      await send({ type: 'synced', accounts: request.accounts.length, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
    } finally {
      await database.close();
    }
  })()
    .catch((error: unknown) =>
      send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    )
    .finally(() => process.disconnect());
});
