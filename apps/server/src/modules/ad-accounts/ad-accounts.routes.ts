import {
  adAccountDetailSchema,
  adAccountIdParamsSchema,
  adAccountSchema,
  adAccountStatsQuerySchema,
  adAccountStatsSchema,
  authUrlResponseSchema,
  facebookCallbackRequestSchema,
  facebookCallbackResponseSchema,
  messageResponseSchema,
  successEnvelope,
  syncResponseSchema,
  systemUserConnectRequestSchema,
  updateAdAccountRequestSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasRole } from '@adpilot/contracts';
import type { FastifyRequest } from 'fastify';
import { currentWorkspace, scopeOf } from '../../plugins/authenticate.ts';
import type { AdAccountsService } from './ad-accounts.service.ts';
import type { SignalsService } from './signals.service.ts';
import { signalsRoutes } from './signals.routes.ts';

const tags = ['ad-accounts'];

/**
 * Whether the request's member may edit the accounts, so gets the sandbox's Ads Manager link (a door to pausing and
 * budgets): an editor or higher, and a person, never an API token (agents write through the ledger's tools alone).
 */
const editing = (request: FastifyRequest) => hasRole(currentWorkspace(request).role, 'editor') && !request.agent;
const params = adAccountIdParamsSchema;

/** Spec §7 "Ad accounts": every route is the signed-in user's, and a foreign id answers 404. */
export const adAccountsRoutes: FastifyPluginAsyncZod<{
  adAccounts: AdAccountsService;
  signals: SignalsService;
}> = async (app, { adAccounts, signals }) => {
  app.addHook('onRequest', app.requireAuth);
  await app.register(signalsRoutes, { signals });

  app.get('/', { schema: { tags, response: { 200: successEnvelope(z.array(adAccountSchema)) } } }, async (request) => ({
    success: true as const,
    data: await adAccounts.list(scopeOf(request), editing(request)),
  }));

  app.get(
    '/facebook/auth-url',
    // Starts connecting an account (it stores a state): an editor's step as POST /connect is, never an API token's
    // (ADR 0151). A read, but not a viewer's: the state it writes is the first half of a connection.
    {
      config: { role: 'editor', agents: 'never' },
      schema: { tags, response: { 200: successEnvelope(authUrlResponseSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: { authUrl: await adAccounts.createAuthUrl(scopeOf(request)) },
    }),
  );

  // The spec lists POST /connect with no payload shown; it starts the same flow as /facebook/auth-url.
  app.post(
    '/connect',
    { schema: { tags, body: z.strictObject({}).nullish(), response: { 200: successEnvelope(authUrlResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: { authUrl: await adAccounts.createAuthUrl(scopeOf(request)) },
    }),
  );

  app.post(
    '/facebook/callback',
    {
      schema: {
        tags,
        body: facebookCallbackRequestSchema,
        response: { 200: successEnvelope(facebookCallbackResponseSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await adAccounts.completeConnection(scopeOf(request), request.body.code, request.body.state),
    }),
  );

  // An agency's accounts through its Business Manager system user (ADR 0190): an admin's or the owner's step, a
  // person's own (the token is a secret of the business), never an API token's.
  app.post(
    '/system-user',
    {
      config: { role: 'admin', agents: 'never' },
      schema: {
        tags,
        body: systemUserConnectRequestSchema,
        response: { 200: successEnvelope(facebookCallbackResponseSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await adAccounts.connectSystemUser(scopeOf(request), request.body.access_token),
    }),
  );

  app.get(
    '/:id',
    { schema: { tags, params, response: { 200: successEnvelope(adAccountDetailSchema) } } },
    async (request) => ({
      success: true as const,
      data: await adAccounts.detail(scopeOf(request), request.params.id, editing(request)),
    }),
  );

  app.patch(
    '/:id',
    {
      schema: { tags, params, body: updateAdAccountRequestSchema, response: { 200: successEnvelope(adAccountSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await adAccounts.update(scopeOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    { schema: { tags, params, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => {
      await adAccounts.disconnect(scopeOf(request), request.params.id);
      return { success: true as const, data: { message: 'Ad account disconnected' } };
    },
  );

  app.post(
    '/:id/sync',
    {
      schema: {
        tags,
        params,
        body: z.strictObject({}).nullish(),
        response: { 202: successEnvelope(syncResponseSchema) },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return { success: true as const, data: await adAccounts.requestSync(scopeOf(request), request.params.id) };
    },
  );

  app.get(
    '/:id/stats',
    {
      schema: {
        tags,
        params,
        querystring: adAccountStatsQuerySchema,
        response: { 200: successEnvelope(adAccountStatsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await adAccounts.stats(scopeOf(request), request.params.id, request.query),
    }),
  );
};
