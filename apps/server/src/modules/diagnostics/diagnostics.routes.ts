import {
  diagnosticResultSchema,
  diagnosticsInfoSchema,
  diagnosticTestParamSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DiagnosticsService } from './diagnostics.service.ts';

/**
 * The Test page's API: open to anyone, as the spec's page is, but its checks run only where diagnostics are enabled
 * (403 DIAGNOSTICS_DISABLED otherwise; ADR 0045).
 */
export const diagnosticsRoutes: FastifyPluginAsyncZod<{ diagnostics: DiagnosticsService }> = async (
  app,
  { diagnostics },
) => {
  app.get(
    '/',
    { schema: { tags: ['diagnostics'], response: { 200: successEnvelope(diagnosticsInfoSchema) } } },
    async () => ({ success: true as const, data: await diagnostics.info() }),
  );

  app.post(
    '/tests/:test',
    {
      schema: {
        tags: ['diagnostics'],
        params: diagnosticTestParamSchema,
        response: { 200: successEnvelope(diagnosticResultSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await diagnostics.run(request.params.test, request.ip) }),
  );
};
