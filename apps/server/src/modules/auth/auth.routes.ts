import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  logoutRequestSchema,
  messageResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  sessionSchema,
  successEnvelope,
  userSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { AuthService } from './auth.service.ts';

const tags = ['auth'];

/** The seven authentication endpoints of the spec, with its exact payloads and answers. */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/login',
    { schema: { tags, body: loginRequestSchema, response: { 200: successEnvelope(sessionSchema) } } },
    async (request) => ({
      success: true as const,
      data: await auth.login(request.body, request.ip),
    }),
  );

  app.post(
    '/register',
    { schema: { tags, body: registerRequestSchema, response: { 201: successEnvelope(sessionSchema) } } },
    async (request, reply) => {
      reply.status(201);
      return { success: true as const, data: await auth.register(request.body, request.ip) };
    },
  );

  app.post(
    '/refresh',
    { schema: { tags, body: refreshRequestSchema, response: { 200: successEnvelope(refreshResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: await auth.refresh(request.body.refreshToken),
    }),
  );

  app.get(
    '/me',
    { onRequest: app.requireUser, schema: { tags, response: { 200: successEnvelope(userSchema) } } },
    async (request) => ({
      success: true as const,
      data: await auth.me(currentUser(request).id),
    }),
  );

  // Logout must work with an expired access token too: the refresh token alone identifies the session.
  app.post(
    '/logout',
    {
      schema: { tags, body: logoutRequestSchema.nullish(), response: { 200: successEnvelope(messageResponseSchema) } },
    },
    async (request, reply) => {
      let sessionId: string | undefined;
      if (request.headers.authorization) {
        await app.requireUser(request, reply).catch(() => undefined);
        sessionId = request.authUser?.sessionId;
      }
      await auth.logout(request.body?.refreshToken, sessionId);
      return { success: true as const, data: { message: 'Logged out' } };
    },
  );

  app.post(
    '/forgot-password',
    { schema: { tags, body: forgotPasswordRequestSchema, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: { message: await auth.forgotPassword(request.body.email, request.ip, request.body.language) },
    }),
  );

  app.post(
    '/reset-password',
    { schema: { tags, body: resetPasswordRequestSchema, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: { message: await auth.resetPassword(request.body.token, request.body.password) },
    }),
  );
};
