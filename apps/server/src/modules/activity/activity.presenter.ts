import {
  ACTIVITY_LEVELS,
  activityCodeOf,
  UUID_PATTERN,
  describeActivity,
  type ActivityLog,
  type LogFilters,
} from '@adpilot/contracts';
import type { ActivityLogRow } from '@adpilot/db';

/** The names of the members who wrote entries, by user id (read once for a page's distinct actors). */
export type ActorNames = ReadonlyMap<string, string>;

/** The distinct people who wrote these entries (a workspace job's entries have none). */
export function actorIdsOf(rows: readonly ActivityLogRow[]): string[] {
  return [...new Set(rows.flatMap((row) => (row.actorUserId ? [row.actorUserId] : [])))];
}

/** The agent that wrote an entry (ADR 0152): the credential the writer stored, never a name the agent typed. */
function agentOf(metadata: Record<string, unknown>): ActivityLog['actor'] {
  const agent = metadata.agent;
  if (!agent || typeof agent !== 'object') return null;
  const { credentialId, name } = agent as Record<string, unknown>;
  if (typeof credentialId !== 'string' || !UUID_PATTERN.test(credentialId) || typeof name !== 'string') return null;
  return { id: credentialId, name, via: 'mcp' };
}

/**
 * A stored entry as the API answers it (spec §3 Log entry: `_id`, `level`, `description`, `createdAt` …). The actor
 * is null for a workspace job's entry, and for one whose author's account is gone; an agent's entry names the agent.
 */
export function presentLog(row: ActivityLogRow, actors: ActorNames): ActivityLog {
  const actorName = row.actorUserId ? actors.get(row.actorUserId) : undefined;
  const { code, params } = activityCodeOf(row.metadata);
  const agent = agentOf(row.metadata);
  return {
    _id: row.id,
    seq: row.seq,
    level: row.level,
    type: row.category,
    code,
    params,
    description: row.description,
    adAccountId: row.adAccountId,
    ruleId: row.ruleId,
    metadata: row.metadata,
    actor: agent ?? (row.actorUserId && actorName !== undefined ? { id: row.actorUserId, name: actorName } : null),
    createdAt: row.createdAt.toISOString(),
  };
}

const CSV_COLUMNS = ['id', 'createdAt', 'level', 'type', 'code', 'description', 'adAccountId', 'ruleId'] as const;

/**
 * One CSV field: quoted when it holds a separator, a quote or a line break; a leading `= + - @` (or tab/CR) is
 * prefixed with `'` so a spreadsheet never runs a description as a formula.
 */
function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

/** One exported line; the description is the plain English of the code (the stored one for notes and old rows). */
export function csvLine(row: ActivityLogRow): string {
  const { code, params } = activityCodeOf(row.metadata);
  return `${[
    row.id,
    row.createdAt.toISOString(),
    row.level,
    row.category,
    code,
    describeActivity(code, params, row.description),
    row.adAccountId,
    row.ruleId,
  ]
    .map(csvField)
    .join(',')}\r\n`;
}

/** Whether a live entry passes a stream's filters: the same rules as the SQL of a filtered read. */
export function matchesFilters(log: ActivityLog, filters: LogFilters, bounds: { from?: Date; to?: Date }): boolean {
  const many = <T>(value: T | T[] | undefined) => (value === undefined ? undefined : ([] as T[]).concat(value));
  const levels = many(filters.level);
  const types = many(filters.type) as string[] | undefined;
  if (levels && !levels.includes(log.level)) return false;
  if (types && !types.includes(log.type)) return false;
  if (filters.ruleId && log.ruleId !== filters.ruleId) return false;
  if (filters.adAccountId && log.adAccountId !== filters.adAccountId) return false;
  const at = Date.parse(log.createdAt);
  if (bounds.from && at < bounds.from.getTime()) return false;
  if (bounds.to && at > bounds.to.getTime()) return false;
  if (filters.search && !log.description.toLowerCase().includes(filters.search.toLowerCase())) return false;
  return true;
}

export const emptyByLevel = () =>
  Object.fromEntries(ACTIVITY_LEVELS.map((level) => [level, 0])) as Record<(typeof ACTIVITY_LEVELS)[number], number>;
