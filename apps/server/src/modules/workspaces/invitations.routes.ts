import {
  acceptInvitationInputSchema,
  invitationPreviewQuerySchema,
  invitationPreviewSchema,
  successEnvelope,
  workspaceSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { InvitationsService } from './invitations.service.ts';

const tags = ['workspaces'];

/**
 * /api/invitations: the invitation link's page. The preview is public (the invited person may have no account yet)
 * and counted per address like any token look-up; accepting needs the invited address signed in (ADR 0071).
 */
export const invitationsRoutes: FastifyPluginAsyncZod<{ invitations: InvitationsService }> = async (
  app,
  { invitations },
) => {
  app.get(
    '/preview',
    {
      schema: {
        tags,
        querystring: invitationPreviewQuerySchema,
        response: { 200: successEnvelope(invitationPreviewSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await invitations.preview(request.query.token, request.ip),
    }),
  );

  app.post(
    '/accept',
    {
      onRequest: app.requireUser,
      schema: { tags, body: acceptInvitationInputSchema, response: { 200: successEnvelope(workspaceSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await invitations.accept(currentUser(request).id, request.body.token),
    }),
  );
};
