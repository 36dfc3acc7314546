import {
  diagnosticResultSchema,
  diagnosticsInfoSchema,
  diagnosticTestParamSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DiagnosticsService } from './diagnostics.service.ts';

const OPEN_UNTIL_ADMINISTERED =
  'Open to anyone while the instance has no administrator (its first run); from then on the administrator’s only.';

/**
 * The Test page's API. Its checks run only where diagnostics are enabled (403 DIAGNOSTICS_DISABLED otherwise; ADR
 * 0045). On a fresh instance it is open to anyone, so the first run can be checked; once the instance has an
 * administrator it answers only to them (401 signed out, 403 for anyone else; ADR 0086): versions, providers, missing
 * configuration and the user count are theirs, and the checks write.
 */
export const diagnosticsRoutes: FastifyPluginAsyncZod<{ diagnostics: DiagnosticsService }> = async (
  app,
  { diagnostics },
) => {
  app.addHook('onRequest', async (request, reply) => {
    if (await diagnostics.adminOnly()) await app.requireAdmin(request, reply);
  });

  app.get(
    '/',
    {
      schema: {
        tags: ['diagnostics'],
        description: OPEN_UNTIL_ADMINISTERED,
        response: { 200: successEnvelope(diagnosticsInfoSchema) },
      },
    },
    async () => ({ success: true as const, data: await diagnostics.info() }),
  );

  app.post(
    '/tests/:test',
    {
      schema: {
        tags: ['diagnostics'],
        description: OPEN_UNTIL_ADMINISTERED,
        params: diagnosticTestParamSchema,
        response: { 200: successEnvelope(diagnosticResultSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await diagnostics.run(request.params.test, request.ip) }),
  );
};
