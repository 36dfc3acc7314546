import {
  CLEARABLE_ACTIVITY_CATEGORIES,
  rangeEnd,
  rangeStart,
  UNCLEARABLE_ACTIVITY_CODES,
  UUID_PATTERN,
  type ActivityLevel,
  type LogFilters,
} from '@adpilot/contracts';
import { activityLogCounters, activityLogs, type ActivityLogRow, type SystemTx, type TenantTx } from '@adpilot/db';
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';

export interface NewActivity {
  level: ActivityLevel;
  category: string;
  description: string;
  adAccountId?: string | null;
  metadata?: Record<string, unknown>;
}

/** `%` and `_` are wildcards of LIKE: a search for "50%" means those three characters. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const many = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** Rows a statement changed: `rowCount` from node-postgres, `affectedRows` from PGlite. */
function affected(result: unknown): number {
  const counts = result as { rowCount?: number | null; affectedRows?: number };
  return counts.rowCount ?? counts.affectedRows ?? 0;
}

/** The entries an owner may clear: the clearable categories, never a change made outside AdPilot (ADR 0094). */
const clearable = () =>
  and(
    inArray(activityLogs.category, [...CLEARABLE_ACTIVITY_CATEGORIES]),
    sql`coalesce(${activityLogs.metadata}->>'code', '') not in (${sql.join(
      UNCLEARABLE_ACTIVITY_CODES.map((code) => sql`${code}`),
      sql`, `,
    )})`,
  );

/** The WHERE of a filtered read: the user (besides row-level security), then every given filter, all combined. */
function conditions(userId: string, filters: LogFilters, extra: (SQL | undefined)[] = []): SQL | undefined {
  const levels = many(filters.level);
  const types = many(filters.type);
  return and(
    eq(activityLogs.workspaceId, userId),
    levels ? inArray(activityLogs.level, levels) : undefined,
    types ? inArray(activityLogs.category, types) : undefined,
    filters.ruleId ? eq(activityLogs.ruleId, filters.ruleId) : undefined,
    filters.adAccountId ? eq(activityLogs.adAccountId, filters.adAccountId) : undefined,
    filters.from ? gte(activityLogs.createdAt, rangeStart(filters.from)) : undefined,
    filters.to ? lte(activityLogs.createdAt, rangeEnd(filters.to)) : undefined,
    filters.search ? ilike(activityLogs.description, likePattern(filters.search)) : undefined,
    ...extra,
  );
}

export interface LogPage {
  rows: ActivityLogRow[];
  total: number;
  asOf: number;
}

export interface LogCounts {
  byLevel: { level: string; n: number }[];
  byType: { type: string; n: number }[];
  perDay: { date: string; n: number }[];
}

/** The activity log of the transaction's user: row-level security plus an explicit filter on `tx.workspaceId`. */
export class ActivityRepository {
  /**
   * Writes in the caller's unit of work, so the entry commits (or not) with what it describes. The database gives
   * it its `seq` and tells the listening processes as it commits (migration 0044, ADR 0200): the row returned
   * here still reads `seq` 0.
   */
  async insert(tx: TenantTx, entry: NewActivity): Promise<ActivityLogRow> {
    const metadata = entry.metadata ?? {};
    const ruleId = typeof metadata.ruleId === 'string' && UUID_PATTERN.test(metadata.ruleId) ? metadata.ruleId : null;
    const [row] = await tx.db
      .insert(activityLogs)
      .values({ workspaceId: tx.workspaceId, actorUserId: tx.userId, ...entry, ruleId, metadata })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  /** The highest `seq` handed out to this user so far (0 before the first entry). */
  async lastSeq(tx: TenantTx): Promise<number> {
    const [row] = await tx.db
      .select({ lastSeq: activityLogCounters.lastSeq })
      .from(activityLogCounters)
      .where(eq(activityLogCounters.workspaceId, tx.workspaceId));
    return row?.lastSeq ?? 0;
  }

  /**
   * One page, newest first, of the entries up to `asOf` (all of them when absent), with their true total. The page,
   * its `asOf` and the total come back in one statement: the counter and the count are uncorrelated subqueries that
   * Postgres evaluates once. Only a page past the end (no row to carry them) asks for the two again.
   */
  async page(
    tx: TenantTx,
    filters: LogFilters,
    options: { offset: number; limit: number; asOf?: number | undefined },
  ): Promise<LogPage> {
    const asOf =
      options.asOf === undefined
        ? sql<number>`coalesce((select ${activityLogCounters.lastSeq} from ${activityLogCounters} where ${activityLogCounters.workspaceId} = ${tx.workspaceId}), 0)`
        : sql<number>`${options.asOf}`;
    const where = conditions(tx.workspaceId, filters, [lte(activityLogs.seq, asOf)]);
    const found = await tx.db
      .select({ row: activityLogs, asOf: asOf.mapWith(Number), total: tx.db.$count(activityLogs, where) })
      .from(activityLogs)
      .where(where)
      .orderBy(desc(activityLogs.seq))
      .limit(options.limit)
      .offset(options.offset);
    const first = found[0];
    if (first) return { rows: found.map(({ row }) => row), total: Number(first.total), asOf: first.asOf };
    const seq = options.asOf ?? (await this.lastSeq(tx));
    const total = await tx.db.$count(activityLogs, conditions(tx.workspaceId, filters, [lte(activityLogs.seq, seq)]));
    return { rows: [], total, asOf: seq };
  }

  async find(tx: TenantTx, id: string): Promise<ActivityLogRow | undefined> {
    const [row] = await tx.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.workspaceId, tx.workspaceId), eq(activityLogs.id, id)));
    return row;
  }

  /** Entries after `afterSeq`, oldest first: the live stream's catch-up and the export's batches (keyset, by seq). */
  after(tx: TenantTx, filters: LogFilters, afterSeq: number, limit: number): Promise<ActivityLogRow[]> {
    return tx.db
      .select()
      .from(activityLogs)
      .where(conditions(tx.workspaceId, filters, [gt(activityLogs.seq, afterSeq)]))
      .orderBy(activityLogs.seq)
      .limit(limit);
  }

  /** Entries before `beforeSeq`, newest first (the export walks the log backwards in batches). */
  before(tx: TenantTx, filters: LogFilters, beforeSeq: number, limit: number): Promise<ActivityLogRow[]> {
    return tx.db
      .select()
      .from(activityLogs)
      .where(conditions(tx.workspaceId, filters, [lt(activityLogs.seq, beforeSeq)]))
      .orderBy(desc(activityLogs.seq))
      .limit(limit);
  }

  /** Counts per level and per type, and rule actions per day in `timeZone`. */
  /**
   * Counts per level, per type and (rule actions only) per local day, in one scan of the user's entries: one
   * statement grouped by three grouping sets, each result row belonging to the one set whose column it fills. The
   * day is only computed for rule actions (the other entries make the one group without a day, left out).
   */
  async counts(tx: TenantTx, filters: LogFilters, timeZone: string): Promise<LogCounts> {
    const rows = await tx.db
      .select({
        level: sql<string | null>`${activityLogs.level}`,
        type: sql<string | null>`${activityLogs.category}`,
        date: sql<string | null>`case when ${activityLogs.category} = 'rule_action'
          then to_char(${activityLogs.createdAt} at time zone ${timeZone}, 'YYYY-MM-DD') end`,
        n: count(),
      })
      .from(activityLogs)
      .where(conditions(tx.workspaceId, filters))
      // By position: the zone is a parameter, and a second copy of it would be another expression to Postgres.
      .groupBy(sql`grouping sets ((1), (2), (3))`)
      .orderBy(sql`3`);
    const counts: LogCounts = { byLevel: [], byType: [], perDay: [] };
    for (const { level, type, date, n } of rows) {
      if (level !== null) counts.byLevel.push({ level, n });
      else if (type !== null) counts.byType.push({ type, n });
      else if (date !== null) counts.perDay.push({ date, n });
    }
    return counts;
  }

  /** The rule actions of [from, to), oldest first, at most `limit`, and how many there were in all (the digest). */
  async ruleActionsBetween(
    tx: TenantTx,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<{ rows: ActivityLogRow[]; total: number; byLevel: Record<string, number> }> {
    const where = and(
      eq(activityLogs.workspaceId, tx.workspaceId),
      eq(activityLogs.category, 'rule_action'),
      gte(activityLogs.createdAt, from),
      lt(activityLogs.createdAt, to),
    );
    const rows = await tx.db.select().from(activityLogs).where(where).orderBy(asc(activityLogs.createdAt)).limit(limit);
    const counts = await tx.db
      .select({ level: activityLogs.level, count: sql<number>`count(*)::int` })
      .from(activityLogs)
      .where(where)
      .groupBy(activityLogs.level);
    const byLevel = Object.fromEntries(counts.map((c) => [c.level, Number(c.count)]));
    return { rows, total: counts.reduce((sum, c) => sum + Number(c.count), 0), byLevel };
  }

  /** Deletes the given entries of the clearable kinds only (ADR 0094); the others stay. */
  async deleteIds(tx: TenantTx, ids: string[]): Promise<number> {
    return affected(
      await tx.db
        .delete(activityLogs)
        .where(and(eq(activityLogs.workspaceId, tx.workspaceId), inArray(activityLogs.id, ids), clearable())),
    );
  }

  /** Deletes the filtered entries of the clearable kinds only (ADR 0094); the others stay. */
  async clear(tx: TenantTx, filters: LogFilters): Promise<number> {
    return affected(await tx.db.delete(activityLogs).where(conditions(tx.workspaceId, filters, [clearable()])));
  }

  /** Retention: every user's entries older than `before`, in batches so one run never holds a huge transaction. */
  async deleteOlderThan(tx: SystemTx, before: Date, batch: number): Promise<number> {
    const result = await tx.db.execute(
      sql`delete from ${activityLogs} where ${activityLogs.id} in (
        select ${activityLogs.id} from ${activityLogs} where ${activityLogs.createdAt} < ${before} limit ${batch})`,
    );
    return affected(result);
  }
}
