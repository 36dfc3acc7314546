import {
  invitationInputSchema,
  invitationListSchema,
  sentInvitationSchema,
  memberRoleInputSchema,
  messageResponseSchema,
  successEnvelope,
  workspaceIdParamsSchema,
  workspaceInvitationParamsSchema,
  workspaceListSchema,
  workspaceMemberListSchema,
  workspaceMemberParamsSchema,
  workspaceMemberSchema,
  workspaceNameInputSchema,
  workspaceSchema,
  workspaceTransferInputSchema,
  workspaceTransferListSchema,
  workspaceTransferParamsSchema,
  workspaceTransferSchema,
} from '@adpilot/contracts';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { HandoverService } from './handover.service.ts';
import type { InvitationsService } from './invitations.service.ts';
import type { WorkspacesService } from './workspaces.service.ts';

const tags = ['workspaces'];

/**
 * /api/workspaces: the signed-in user's workspaces, their members and invitations (ADR 0070, 0071). The workspace is
 * the `:id` of the path, not the request's current one, so the routes need a signed-in user only and the service
 * checks the caller's role in `:id` in the unit of work that acts on it.
 */
export const workspacesRoutes: FastifyPluginAsyncZod<{
  workspaces: WorkspacesService;
  invitations: InvitationsService;
  handover: HandoverService;
}> = async (app, { workspaces, invitations, handover }) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/', { schema: { tags, response: { 200: successEnvelope(workspaceListSchema) } } }, async (request) => ({
    success: true as const,
    data: await workspaces.list(currentUser(request).id),
  }));

  app.post(
    '/',
    { schema: { tags, body: workspaceNameInputSchema, response: { 201: successEnvelope(workspaceSchema) } } },
    async (request, reply) => {
      reply.status(201);
      return { success: true as const, data: await workspaces.create(currentUser(request).id, request.body.name) };
    },
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        params: workspaceIdParamsSchema,
        body: workspaceNameInputSchema,
        response: { 200: successEnvelope(workspaceSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await workspaces.rename(currentUser(request).id, request.params.id, request.body.name),
    }),
  );

  app.delete(
    '/:id',
    { schema: { tags, params: workspaceIdParamsSchema, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => {
      await workspaces.delete(currentUser(request).id, request.params.id);
      return { success: true as const, data: { message: 'Workspace deleted' } };
    },
  );

  app.get(
    '/:id/members',
    {
      schema: { tags, params: workspaceIdParamsSchema, response: { 200: successEnvelope(workspaceMemberListSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await workspaces.members(currentUser(request).id, request.params.id),
    }),
  );

  app.patch(
    '/:id/members/:userId',
    {
      schema: {
        tags,
        params: workspaceMemberParamsSchema,
        body: memberRoleInputSchema,
        response: { 200: successEnvelope(workspaceMemberSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await workspaces.changeRole(
        currentUser(request).id,
        request.params.id,
        request.params.userId,
        request.body.role,
      ),
    }),
  );

  app.delete(
    '/:id/members/:userId',
    {
      schema: { tags, params: workspaceMemberParamsSchema, response: { 200: successEnvelope(messageResponseSchema) } },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await workspaces.removeMember(userId, request.params.id, request.params.userId);
      const message = userId === request.params.userId ? 'You left the workspace' : 'Member removed';
      return { success: true as const, data: { message } };
    },
  );

  app.post(
    '/:id/invitations',
    {
      schema: {
        tags,
        params: workspaceIdParamsSchema,
        body: invitationInputSchema,
        response: { 201: successEnvelope(sentInvitationSchema) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return {
        success: true as const,
        data: await invitations.invite(currentUser(request).id, request.params.id, request.body),
      };
    },
  );

  app.get(
    '/:id/invitations',
    { schema: { tags, params: workspaceIdParamsSchema, response: { 200: successEnvelope(invitationListSchema) } } },
    async (request) => ({
      success: true as const,
      data: await invitations.list(currentUser(request).id, request.params.id),
    }),
  );

  app.delete(
    '/:id/invitations/:invitationId',
    {
      schema: {
        tags,
        params: workspaceInvitationParamsSchema,
        response: { 200: successEnvelope(messageResponseSchema) },
      },
    },
    async (request) => {
      await invitations.revoke(currentUser(request).id, request.params.id, request.params.invitationId);
      return { success: true as const, data: { message: 'Invitation withdrawn' } };
    },
  );

  app.post(
    '/:id/invitations/:invitationId/resend',
    {
      schema: {
        tags,
        params: workspaceInvitationParamsSchema,
        response: { 200: successEnvelope(sentInvitationSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await invitations.resend(currentUser(request).id, request.params.id, request.params.invitationId),
    }),
  );

  // Handovers (issue 31): the owner offers a shared workspace to a member, who takes it over with its plan.
  app.get(
    '/transfers',
    { schema: { tags, response: { 200: successEnvelope(workspaceTransferListSchema) } } },
    async (request) => ({ success: true as const, data: await handover.incoming(currentUser(request).id) }),
  );

  app.post(
    '/:id/transfer',
    {
      schema: {
        tags,
        params: workspaceIdParamsSchema,
        body: workspaceTransferInputSchema,
        response: { 201: successEnvelope(workspaceTransferSchema) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return {
        success: true as const,
        data: await handover.offer(currentUser(request).id, request.params.id, request.body.toUserId),
      };
    },
  );

  app.post(
    '/transfers/:id/accept',
    {
      schema: {
        tags,
        params: workspaceTransferParamsSchema,
        response: { 200: successEnvelope(z.object({ workspaceId: z.uuid() })) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await handover.accept(currentUser(request).id, request.params.id),
    }),
  );
};
