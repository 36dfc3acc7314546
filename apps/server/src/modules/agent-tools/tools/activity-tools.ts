import { logFilterShape, type ActivityLog } from '@adpilot/contracts';
import { z } from 'zod';
import type { ActivityService } from '../../activity/index.ts';
import {
  defineTool,
  PAGE_DEFAULT,
  PAGE_MAX,
  readOnly,
  ToolError,
  type ToolDefinition,
} from '../../../lib/tool-registry.ts';

export interface ActivityToolServices {
  /** The activity module's service (the log as a member's request reads it). */
  activityLog: Pick<ActivityService, 'list'>;
}

/** An entry as an agent reads it: the words, what it is about, and who did it. */
function entryOf(log: ActivityLog) {
  return {
    id: log._id,
    at: log.createdAt,
    level: log.level,
    type: log.type,
    code: log.code,
    text: log.description,
    params: log.params,
    adAccountId: log.adAccountId,
    ruleId: log.ruleId,
    actor: log.actor,
  };
}

/** A cursor of the activity log: the page after which to read, pinned to the entries that existed (`asOf`). */
const CURSOR = /^(\d{1,6})@(\d{1,16})$/;

export function activityTools(services: ActivityToolServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_activity',
      title: 'List activity',
      description:
        'The activity log, newest first: syncs, rule runs and actions, proposals, changes made outside AdPilot, agents',
      scope: 'read',
      input: z.strictObject({
        ...logFilterShape,
        limit: z.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
        cursor: z.string().max(40).optional().describe('The nextCursor of the previous page'),
      }),
      annotations: readOnly,
      run: async ({ scope }, input) => {
        const { limit, cursor, ...filters } = input;
        const pinned = cursor === undefined ? null : CURSOR.exec(cursor);
        if (cursor !== undefined && !pinned) throw new ToolError('invalid_cursor', 'This cursor is not one of ours');
        const page = pinned ? Number(pinned[1]) : 1;
        const list = await services.activityLog.list(scope, {
          ...filters,
          page,
          limit,
          ...(pinned ? { asOf: Number(pinned[2]) } : {}),
        });
        const { pagination } = list;
        return {
          entries: list.logs.map(entryOf),
          total: pagination.total,
          nextCursor: page < pagination.totalPages ? `${page + 1}@${pagination.asOf}` : null,
        };
      },
    }),
  ];
}
