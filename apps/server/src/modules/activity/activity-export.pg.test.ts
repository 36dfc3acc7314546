import { sql } from 'drizzle-orm';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listenLocally, registerUser, type TestApp } from '../../test/test-app.ts';

const ENTRIES = 100_000;

// A full collection on demand, so what is measured is the memory still held, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  collect();
  return process.memoryUsage().heapUsed;
};
let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MAX: '0' });
  origin = await listenLocally(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/logs/export of 100k entries', () => {
  it('streams every entry while the heap stays far below the file’s size (measured)', async () => {
    const session = await registerUser(t.app);
    // About 250 bytes an entry: a 24 MB CSV. Seeded in bulk with the numbering done here (what the trigger does
    // one row at a time), as the tables' owner, so the embedded database seeds in seconds.
    await t.inspect(async (db) => {
      await db.execute(sql`set local role none`);
      await db.execute(sql`alter table activity_logs disable trigger user`);
      await db.execute(sql`insert into activity_logs (workspace_id, seq, level, category, description, metadata)
        select ${session.workspaceId}::uuid, g, 'info', 'sync', 'entry ' || g || ' ' || repeat('x', 160),
               jsonb_build_object('code', 'note', 'params', '{}'::jsonb)
        from generate_series(1, ${ENTRIES}) as g`);
      await db.execute(sql`alter table activity_logs enable trigger user`);
      await db.execute(
        sql`insert into activity_log_counters (workspace_id, last_seq) values (${session.workspaceId}::uuid, ${ENTRIES})`,
      );
    });
    for (const format of ['csv', 'json'] as const) {
      const baseline = retainedHeap();
      let peak = baseline;
      const response = await fetch(`${origin}/api/logs/export?format=${format}`, { headers: session.auth });
      expect(response.status).toBe(200);
      let bytes = 0;
      let lines = 0;
      let tail = '';
      let nextSample = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        const text = tail + Buffer.from(chunk).toString('utf8');
        const parts = text.split('\n');
        tail = parts.pop() ?? '';
        lines += parts.length;
        if (bytes >= nextSample) {
          // Every 2 MB: what the server (and this reader) hold now. A pause, as a slow client makes: the server
          // must wait for it rather than read ahead into memory.
          nextSample += 2 ** 21;
          await new Promise((resolve) => setTimeout(resolve, 20));
          peak = Math.max(peak, retainedHeap());
        }
      }
      const growthMb = (peak - baseline) / 2 ** 20;
      const fileMb = bytes / 2 ** 20;
      process.stdout.write(
        `export ${format}: ${fileMb.toFixed(1)} MB, ${lines} lines, retained heap at most +${growthMb.toFixed(1)} MB\n`,
      );
      // Every entry is there (CSV: a header line; JSON: one entry a line between the brackets).
      expect(lines).toBe(format === 'csv' ? ENTRIES + 1 : ENTRIES + 2);
      expect(fileMb).toBeGreaterThan(20);
      // The server and this reader share the heap: holding the file (or its rows) would retain more than its size.
      expect(growthMb).toBeLessThan(fileMb / 4);
    }
  }, 300_000);
});
