import {
  oauthAuthorizationQuerySchema,
  oauthAuthorizationSchema,
  oauthConsentRequestSchema,
  oauthConsentSchema,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../../plugins/authenticate.ts';
import type { OAuthService } from './oauth.service.ts';

const tags = ['agents'];

/**
 * /api/oauth: what the consent page asks (ADR 0153). The signed-in member reads the request as AdPilot checked it,
 * then allows it for one of their workspaces with the scopes they choose, or denies it; either answer is where the
 * browser goes next. A person's own decision: no agent reaches these routes.
 */
export const oauthConsentRoutes: FastifyPluginAsyncZod<{ oauth: OAuthService }> = async (app, { oauth }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/authorization',
    {
      schema: {
        tags,
        querystring: oauthAuthorizationQuerySchema,
        response: { 200: successEnvelope(oauthAuthorizationSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await oauth.authorization(currentUser(request).id, request.query),
    }),
  );

  app.post(
    '/consent',
    { schema: { tags, body: oauthConsentRequestSchema, response: { 200: successEnvelope(oauthConsentSchema) } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: await oauth.consent(currentUser(request).id, request.body) };
    },
  );
};
