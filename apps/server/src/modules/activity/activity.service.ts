import {
  describeActivity,
  LOG_MESSAGES,
  type ActivityLog,
  type ExportLogsQuery,
  type ListLogsQuery,
  type LogFilters,
  type LogList,
  type LogStats,
  type LogStatsQuery,
} from '@adpilot/contracts';
import type { ActivityLogRow, TenantScope, TenantTx, Transactions } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { ActivityRepository } from './activity.repository.ts';
import type { AuthService } from '../auth/index.ts';
import { actorIdsOf, CSV_HEADER, csvLine, emptyByLevel, presentLog, type ActorNames } from './activity.presenter.ts';

export interface ActivityServiceDeps {
  transactions: Transactions;
  repository: ActivityRepository;
  /** The names of the entries' authors (auth's service). */
  profiles: Pick<AuthService, 'profilesIn'>;
}

/** How many entries one export batch (one short transaction) reads: memory stays bounded whatever the log's size. */
export const EXPORT_BATCH = 1_000;
/** How many entries retention deletes per transaction. */
export const RETENTION_BATCH = 5_000;

/** Only the filter fields of a query, so pagination or format never reach the SQL. */
function filtersOf(query: LogFilters): LogFilters {
  const { level, type, ruleId, adAccountId, from, to, search } = query;
  return Object.fromEntries(
    Object.entries({ level, type, ruleId, adAccountId, from, to, search }).filter(([, value]) => value !== undefined),
  ) as LogFilters;
}

/** Spec §7 Logs: the signed-in user's activity log; another user's entry answers like a missing one. */
export class ActivityService {
  constructor(private readonly deps: ActivityServiceDeps) {}

  /**
   * The entries as the API answers them: their authors' names are read once for the distinct actors of the batch,
   * on the system path (a member's name is auth's, and an author may have left the workspace since).
   */
  private async present(rows: readonly ActivityLogRow[]): Promise<ActivityLog[]> {
    const ids = actorIdsOf(rows);
    const actors: ActorNames =
      ids.length === 0
        ? new Map()
        : new Map(
            (
              await this.deps.transactions.system('activity log actors', (tx) => this.deps.profiles.profilesIn(tx, ids))
            ).map((profile) => [profile.id, profile.name]),
          );
    return rows.map((row) => presentLog(row, actors));
  }

  async list(scope: TenantScope, query: ListLogsQuery): Promise<LogList> {
    const { page, limit } = query;
    const result = await this.deps.transactions.tenant(scope, (tx) =>
      this.deps.repository.page(tx, filtersOf(query), { offset: (page - 1) * limit, limit, asOf: query.asOf }),
    );
    return {
      logs: await this.present(result.rows),
      pagination: {
        page,
        limit,
        total: result.total,
        totalPages: Math.ceil(result.total / limit),
        asOf: result.asOf,
      },
    };
  }

  async get(scope: TenantScope, id: string): Promise<ActivityLog> {
    const row = await this.deps.transactions.tenant(scope, (tx) => this.deps.repository.find(tx, id));
    if (!row) throw AppError.notFound(LOG_MESSAGES.notFound);
    const [log] = await this.present([row]);
    return log!;
  }

  /** The user's own note: type `note`, its text the description (data, never markup). */
  async createNote(
    scope: TenantScope,
    body: { description: string; level: ActivityLog['level'] },
  ): Promise<ActivityLog> {
    const row = await this.deps.transactions.tenant(scope, (tx) =>
      this.deps.repository.insert(tx, {
        level: body.level,
        category: 'note',
        description: body.description,
        metadata: { code: 'note', params: {} },
      }),
    );
    // The entry's number is given as its transaction commits (ADR 0200): read it back to answer with it.
    return this.get(scope, row.id);
  }

  async stats(scope: TenantScope, query: LogStatsQuery): Promise<LogStats> {
    const counts = await this.deps.transactions.tenant(scope, (tx) =>
      this.deps.repository.counts(tx, filtersOf(query), query.tz ?? 'UTC'),
    );
    const byLevel = emptyByLevel();
    for (const { level, n } of counts.byLevel) byLevel[level as keyof typeof byLevel] = n;
    return {
      total: counts.byLevel.reduce((sum, { n }) => sum + n, 0),
      byLevel,
      byType: Object.fromEntries(counts.byType.map(({ type, n }) => [type, n])),
      actionsPerDay: counts.perDay.map(({ date, n }) => ({ date, count: n })),
    };
  }

  /**
   * The export, newest first, as text chunks: one batch of entries per short transaction, walked by `seq` from the
   * newest entry at the start (entries written meanwhile are not included), so memory holds one batch at a time.
   */
  async *exportChunks(scope: TenantScope, query: ExportLogsQuery): AsyncGenerator<string> {
    const filters = filtersOf(query);
    const { repository, transactions } = this.deps;
    let before = (await transactions.tenant(scope, (tx) => repository.lastSeq(tx))) + 1;
    const json = query.format === 'json';
    yield json ? '[' : CSV_HEADER;
    let first = true;
    for (;;) {
      const rows = await transactions.tenant(scope, (tx) => repository.before(tx, filters, before, EXPORT_BATCH));
      if (rows.length === 0) break;
      let chunk = '';
      if (json) {
        for (const log of await this.present(rows)) {
          chunk += `${first ? '' : ','}\n${JSON.stringify(log)}`;
          first = false;
        }
      } else for (const row of rows) chunk += csvLine(row);
      yield chunk;
      before = rows[rows.length - 1]!.seq;
      if (rows.length < EXPORT_BATCH) break;
    }
    if (json) yield '\n]\n';
  }

  /**
   * DELETE /api/logs (owner, ADR 0094): the given entries of the clearable kinds; the entries that record changes
   * stay. What was deleted is recorded in the same unit of work by an `audit` entry signed by the owner.
   */
  async deleteMany(scope: TenantScope, ids: string[]): Promise<number> {
    return this.deps.transactions.tenant(scope, async (tx) =>
      this.tombstone(tx, await this.deps.repository.deleteIds(tx, [...new Set(ids)])),
    );
  }

  /** POST /api/logs/clear (owner, ADR 0094): the filtered entries of the clearable kinds, and the tombstone. */
  async clear(scope: TenantScope, filters: LogFilters): Promise<number> {
    return this.deps.transactions.tenant(scope, async (tx) =>
      this.tombstone(tx, await this.deps.repository.clear(tx, filtersOf(filters))),
    );
  }

  /** Who cleared how many entries: an `audit` entry, which no clearing deletes. */
  private async tombstone(tx: TenantTx, count: number): Promise<number> {
    if (count === 0) return 0;
    const params = { count };
    await this.deps.repository.insert(tx, {
      level: 'warning',
      category: 'audit',
      description: describeActivity('activity_cleared', params),
      metadata: { code: 'activity_cleared', params },
    });
    return count;
  }

  /** The stream's reads: entries after `afterSeq` (oldest first), and where the user's log stands. */
  async after(scope: TenantScope, filters: LogFilters, afterSeq: number, limit: number): Promise<ActivityLog[]> {
    const rows = await this.deps.transactions.tenant(scope, (tx) =>
      this.deps.repository.after(tx, filtersOf(filters), afterSeq, limit),
    );
    return this.present(rows);
  }

  lastSeq(scope: TenantScope): Promise<number> {
    return this.deps.transactions.tenant(scope, (tx) => this.deps.repository.lastSeq(tx));
  }

  /** Retention: deletes every user's entries older than `before`, a batch per transaction; answers how many. */
  async purgeOlderThan(before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.deps.transactions.system('activity log retention', (tx) =>
        this.deps.repository.deleteOlderThan(tx, before, RETENTION_BATCH),
      );
      total += deleted;
      if (deleted < RETENTION_BATCH) return total;
    }
  }
}
