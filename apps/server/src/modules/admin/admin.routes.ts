import {
  adminWorkspaceParamsSchema,
  adminWorkspaceSchema,
  assignPlanRequestSchema,
  outboxMailSchema,
  outboxQuerySchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { AdminService } from './admin.service.ts';

const tags = ['admin'];

/** Operator endpoints: the instance administrator (the first registered user) only. */
export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService }> = async (app, { admin }) => {
  app.addHook('onRequest', app.requireAdmin);

  // Without SMTP, password-reset links wait here; the admin can pass them on.
  app.get(
    '/outbox',
    { schema: { tags, querystring: outboxQuerySchema, response: { 200: successEnvelope(z.array(outboxMailSchema)) } } },
    async (request) => ({ success: true as const, data: await admin.recentOutboxMail(request.query.limit) }),
  );

  // The Users page: every workspace with its owners and plan (ADR 0087).
  app.get(
    '/workspaces',
    { schema: { tags, response: { 200: successEnvelope(z.array(adminWorkspaceSchema)) } } },
    async () => ({ success: true as const, data: await admin.workspaces() }),
  );

  // Without Stripe, outside the sandbox demo, plans are the administrator's to assign (ADR 0087).
  app.put(
    '/workspaces/:workspaceId/plan',
    {
      schema: {
        tags,
        params: adminWorkspaceParamsSchema,
        body: assignPlanRequestSchema,
        response: { 200: successEnvelope(adminWorkspaceSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.assignPlan(currentUser(request).id, request.params.workspaceId, request.body.planId),
    }),
  );
};
