import {
  LOG_MESSAGES,
  type ActivityLog,
  type ExportLogsQuery,
  type ListLogsQuery,
  type LogFilters,
  type LogList,
  type LogStats,
  type LogStatsQuery,
} from '@adpilot/contracts';
import type { Transactions, TenantScope } from '@adpilot/db';
import { AppError } from '../../lib/app-error.ts';
import type { ActivityRepository } from './activity.repository.ts';
import { CSV_HEADER, csvLine, emptyByLevel, presentLog } from './activity.presenter.ts';

export interface ActivityServiceDeps {
  transactions: Transactions;
  repository: ActivityRepository;
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

  async list(scope: TenantScope, query: ListLogsQuery): Promise<LogList> {
    const { page, limit } = query;
    const result = await this.deps.transactions.tenant(scope, (tx) =>
      this.deps.repository.page(tx, filtersOf(query), { offset: (page - 1) * limit, limit, asOf: query.asOf }),
    );
    return {
      logs: result.rows.map(presentLog),
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
    return presentLog(row);
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
    return presentLog(row);
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
      for (const row of rows) {
        if (json) {
          chunk += `${first ? '' : ','}\n${JSON.stringify(presentLog(row))}`;
          first = false;
        } else chunk += csvLine(row);
      }
      yield chunk;
      before = rows[rows.length - 1]!.seq;
      if (rows.length < EXPORT_BATCH) break;
    }
    if (json) yield '\n]\n';
  }

  async deleteMany(scope: TenantScope, ids: string[]): Promise<number> {
    return this.deps.transactions.tenant(scope, (tx) => this.deps.repository.deleteIds(tx, [...new Set(ids)]));
  }

  async clear(scope: TenantScope, filters: LogFilters): Promise<number> {
    return this.deps.transactions.tenant(scope, (tx) => this.deps.repository.clear(tx, filtersOf(filters)));
  }

  /** The stream's reads: entries after `afterSeq` (oldest first), and where the user's log stands. */
  after(scope: TenantScope, filters: LogFilters, afterSeq: number, limit: number): Promise<ActivityLog[]> {
    return this.deps.transactions.tenant(scope, async (tx) =>
      (await this.deps.repository.after(tx, filtersOf(filters), afterSeq, limit)).map(presentLog),
    );
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
