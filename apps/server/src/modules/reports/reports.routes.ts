import {
  reportExportQuerySchema,
  reportOverviewQuerySchema,
  reportOverviewSchema,
  reportQuerySchema,
  reportSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../plugins/authenticate.ts';
import { reportCsv, reportXlsx } from './report-export.ts';
import type { ReportsService } from './reports.service.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** /api/reports: the signed-in user's delivery figures by day (issue 9). */
export const reportsRoutes: FastifyPluginAsyncZod<{ reports: ReportsService }> = async (app, { reports }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/',
    { schema: { tags: ['reports'], querystring: reportQuerySchema, response: { 200: successEnvelope(reportSchema) } } },
    async (request) => ({ success: true as const, data: await reports.report(scopeOf(request), request.query) }),
  );

  app.get(
    '/overview',
    {
      schema: {
        tags: ['reports'],
        querystring: reportOverviewQuerySchema,
        response: { 200: successEnvelope(reportOverviewSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await reports.overview(scopeOf(request), request.query) }),
  );

  app.get(
    '/export',
    {
      schema: {
        tags: ['reports'],
        querystring: reportExportQuerySchema,
        response: {
          200: {
            description: "The Reports page's table as a file (CSV or XLSX): one row per account or campaign",
            content: { 'text/csv': { schema: z.string() }, [XLSX_TYPE]: { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const report = await reports.report(scopeOf(request), query);
      // Named, like the PDF report, by the last day it covers (not the server's clock); the browser names its own.
      reply
        .type(format === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="adpilot-report-${report.to}.${format}"`)
        .header('cache-control', 'no-store');
      return reply.send((format === 'xlsx' ? reportXlsx(report) : reportCsv(report)) as unknown as string);
    },
  );
};
