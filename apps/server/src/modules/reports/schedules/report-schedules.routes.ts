import {
  createReportScheduleSchema,
  messageResponseSchema,
  reportDeliverySchema,
  reportScheduleIdParamsSchema,
  reportScheduleListSchema,
  reportScheduleSchema,
  successEnvelope,
  updateReportScheduleSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopeOf } from '../../../plugins/authenticate.ts';
import type { ReportSchedulesService } from './report-schedules.service.ts';

const tags = ['reports'];
const params = reportScheduleIdParamsSchema;
const emptyBody = z.strictObject({}).nullish();

/** /api/reports/schedules (ADR 0080): reads for viewers, changes and "Send now" for editors (the routes' defaults). */
export const reportSchedulesRoutes: FastifyPluginAsyncZod<{ schedules: ReportSchedulesService }> = async (
  app,
  { schedules },
) => {
  app.addHook('onRequest', app.requireAuth);

  app.get('/', { schema: { tags, response: { 200: successEnvelope(reportScheduleListSchema) } } }, async (request) => ({
    success: true as const,
    data: await schedules.list(scopeOf(request)),
  }));

  app.post(
    '/',
    { schema: { tags, body: createReportScheduleSchema, response: { 201: successEnvelope(reportScheduleSchema) } } },
    async (request, reply) => {
      const data = await schedules.create(scopeOf(request), request.body);
      return reply.code(201).send({ success: true as const, data });
    },
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        params,
        body: updateReportScheduleSchema,
        response: { 200: successEnvelope(reportScheduleSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await schedules.update(scopeOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    { schema: { tags, params, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => {
      await schedules.remove(scopeOf(request), request.params.id);
      return { success: true as const, data: { message: 'Report schedule deleted' } };
    },
  );

  app.post(
    '/:id/send',
    {
      schema: {
        tags,
        params,
        body: emptyBody,
        description:
          "Mails the last full period's report now, once; the answer is the delivery, `failed` with its code when the mail could not be sent",
        response: { 200: successEnvelope(reportDeliverySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await schedules.sendNow(scopeOf(request), request.params.id),
    }),
  );

  app.get(
    '/:id/preview',
    {
      schema: {
        tags,
        params,
        response: {
          200: {
            description: "The PDF of the last full period's report, as a delivery would attach it now",
            content: { 'application/pdf': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await schedules.preview(scopeOf(request), request.params.id);
      reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'no-store');
      return reply.send(pdf as unknown as string);
    },
  );
};
