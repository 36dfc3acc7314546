import {
  connectionResultSchema,
  connectionServiceParamSchema,
  connectionStatusMapSchema,
  settingsUpdateSchema,
  settingsViewSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { SettingsService } from './settings.service.ts';

/** Spec §7 Settings. The instance administrator only: anyone else gets 403 from every route (ADR 0044). */
export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/',
    { schema: { tags: ['settings'], response: { 200: successEnvelope(settingsViewSchema) } } },
    async () => ({ success: true as const, data: settings.view() }),
  );

  app.put(
    '/',
    {
      schema: {
        tags: ['settings'],
        body: settingsUpdateSchema,
        response: { 200: successEnvelope(settingsViewSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await settings.update(currentUser(request).id, request.body) }),
  );

  app.get(
    '/test-connections',
    { schema: { tags: ['settings'], response: { 200: successEnvelope(connectionStatusMapSchema) } } },
    async () => ({ success: true as const, data: await settings.testAll() }),
  );

  app.post(
    '/test-connection/:service',
    {
      schema: {
        tags: ['settings'],
        params: connectionServiceParamSchema,
        response: { 200: successEnvelope(connectionResultSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await settings.testConnection(request.params.service) }),
  );
};
