// Many writers of one workspace's activity log on Postgres (BENCH_DATABASE_URL, default the local server): each
// unit of work writes one entry and then, before its COMMIT, waits BENCH_GAP_MS (default 50 ms) — the round trip
// and the event loop's turn that keep a busy worker's transaction open after its last statement. Measured twice
// with the same load: with the numbering at commit (migration 0044, ADR 0200) and, in a second database, with the
// insert-time trigger it replaced (ADR 0035), which holds the workspace's counter row for the whole gap.
// Prints one line: entries a second and wall time for each, and whether the numbers came out 1..n.
import { randomBytes } from 'node:crypto';
import { activityLogs, openDatabase } from '@adpilot/db';
import { personalWorkspace } from '@adpilot/db/testing';
import { asc, sql } from 'drizzle-orm';
import pg from 'pg';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 16);
const PER_WRITER = Number(process.env.BENCH_ENTRIES ?? 20);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 50);
const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The insert-time numbering of migration 0025, put back for the comparison. */
const INSERT_TIME_TRIGGERS = [
  `drop trigger "activity_logs_number" on "activity_logs"`,
  `create function "activity_logs_assign_seq"() returns trigger language plpgsql as $$
   begin
     insert into "activity_log_counters" as c ("workspace_id", "last_seq") values (new."workspace_id", 1)
     on conflict ("workspace_id") do update set "last_seq" = c."last_seq" + 1
     returning c."last_seq" into new."seq";
     return new;
   end $$`,
  `create trigger "activity_logs_assign_seq" before insert on "activity_logs"
   for each row execute function "activity_logs_assign_seq"()`,
  `create function "activity_logs_notify"() returns trigger language plpgsql as $$
   begin
     perform pg_notify('activity_logs', new."workspace_id"::text || ':' || new."seq"::text);
     return null;
   end $$`,
  `create trigger "activity_logs_notify" after insert on "activity_logs"
   for each row execute function "activity_logs_notify"()`,
];

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `adpilot_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(server);
  target.pathname = `/${name}`;
  try {
    return await work(target.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function measure(numbering: 'at commit' | 'at insert'): Promise<string> {
  return withDatabase(async (url) => {
    const handle = await openDatabase({ url, poolSize: WRITERS + 2 });
    try {
      if (numbering === 'at insert') {
        const owner = new pg.Client({ connectionString: url });
        await owner.connect();
        for (const statement of INSERT_TIME_TRIGGERS) await owner.query(statement);
        await owner.end();
      }
      const scope = await personalWorkspace(handle, { email: 'writers@example.com', name: 'Writers' });
      const started = performance.now();
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; i < PER_WRITER; i += 1)
            await handle.tenant(scope, async (tx) => {
              await tx.db.insert(activityLogs).values({
                workspaceId: tx.workspaceId,
                level: 'info',
                category: 'bench',
                description: `writer ${w} entry ${i}`,
              });
              await new Promise((resolve) => setTimeout(resolve, GAP_MS));
            });
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const seqs = await handle.tenant(scope, (tx) =>
        tx.db
          .select({ seq: activityLogs.seq })
          .from(activityLogs)
          .where(sql`${activityLogs.workspaceId} = ${tx.workspaceId}`)
          .orderBy(asc(activityLogs.seq)),
      );
      const total = WRITERS * PER_WRITER;
      const exact = seqs.length === total && seqs.every((row, i) => row.seq === i + 1);
      return `numbered ${numbering}: ${total} entries in ${seconds.toFixed(1)} s, ${Math.round(total / seconds)} entries/s, numbers ${exact ? '1..n exact' : 'NOT 1..n'}`;
    } finally {
      await handle.close();
    }
  });
}

const before = await measure('at insert');
const after = await measure('at commit');
const load = (await import('node:os')).loadavg().map((n) => n.toFixed(1));
console.log(
  `activity-writers: ${WRITERS} writers of one workspace, ${GAP_MS} ms between each entry and its commit (Postgres); ${before}; ${after}; load average ${load.join(' ')}`,
);
