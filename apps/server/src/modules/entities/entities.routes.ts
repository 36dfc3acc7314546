import {
  entityActionsRequestSchema,
  entityActionsResultsSchema,
  entityDetailQuerySchema,
  entityDetailSchema,
  entityExportQuerySchema,
  entityIdParamsSchema,
  entityListQuerySchema,
  entityListResponseSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../plugins/authenticate.ts';
import type { EntitiesService } from './entities.service.ts';
import type { EntityExports } from './entity-export.ts';
import type { ManualActionsService } from './manual-actions.service.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const tags = ['entities'];

/**
 * /api/entities (issue 28): the explorer's list, an entity with its days and history, manual actions (editors and
 * above; through the ledger like a rule's action) and the table's export.
 */
export const entitiesRoutes: FastifyPluginAsyncZod<{
  entities: EntitiesService;
  actions: ManualActionsService;
  exports: EntityExports;
}> = async (app, { entities, actions, exports }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    { schema: { tags, querystring: entityListQuerySchema, response: { 200: entityListResponseSchema } } },
    async (request) => ({ success: true as const, ...(await entities.list(scopeOf(request), request.query)) }),
  );

  app.get(
    '/export',
    {
      schema: {
        tags,
        querystring: entityExportQuerySchema,
        response: {
          200: {
            description: 'The explorer’s table as a file (CSV or XLSX), every row of the query in its sort',
            content: { 'text/csv': { schema: z.string() }, [XLSX_TYPE]: { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const file = await exports.export(scopeOf(request), request.query);
      reply
        .type(file.format === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store');
      return reply.send(file.body as unknown as string);
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        params: entityIdParamsSchema,
        querystring: entityDetailQuerySchema,
        response: { 200: successEnvelope(entityDetailSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await entities.detail(scopeOf(request), request.params.id, request.query),
    }),
  );

  app.post(
    '/actions',
    {
      config: { role: 'editor' },
      schema: {
        tags,
        body: entityActionsRequestSchema,
        response: { 200: successEnvelope(entityActionsResultsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await actions.run(scopeOf(request), request.body.items, {
        actor: { type: 'person', userId: scopeOf(request).userId as string },
        mode: request.body.dryRun ? 'dry_run' : request.body.propose ? 'propose' : 'apply',
        ...(request.body.key ? { key: request.body.key } : {}),
      }),
    }),
  );
};
