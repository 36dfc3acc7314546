import { reportQuerySchema, reportSchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';

/** /api/reports: the signed-in user's delivery figures by day (issue 9). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reports } = app.ctx;
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    { schema: { tags: ['reports'], querystring: reportQuerySchema, response: { 200: successEnvelope(reportSchema) } } },
    async (request) => ({ success: true as const, data: await reports.report(currentUser(request).id, request.query) }),
  );
};
