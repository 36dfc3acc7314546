import { successEnvelope, workspaceListSchema } from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { WorkspacesService } from './workspaces.service.ts';

/** /api/workspaces: the workspaces the signed-in user is a member of (ADR 0070). */
export const workspacesRoutes: FastifyPluginAsyncZod<{ workspaces: WorkspacesService }> = async (
  app,
  { workspaces },
) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/',
    { schema: { tags: ['workspaces'], response: { 200: successEnvelope(workspaceListSchema) } } },
    async (request) => ({ success: true as const, data: await workspaces.list(currentUser(request).id) }),
  );
};
