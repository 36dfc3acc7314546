import { reportQuerySchema, reportSchema, successEnvelope } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { scopeOf } from '../../plugins/authenticate.ts';
import type { ReportsService } from './reports.service.ts';

/** /api/reports: the signed-in user's delivery figures by day (issue 9). */
export const reportsRoutes: FastifyPluginAsyncZod<{ reports: ReportsService }> = async (app, { reports }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    { schema: { tags: ['reports'], querystring: reportQuerySchema, response: { 200: successEnvelope(reportSchema) } } },
    async (request) => ({ success: true as const, data: await reports.report(scopeOf(request), request.query) }),
  );
};
