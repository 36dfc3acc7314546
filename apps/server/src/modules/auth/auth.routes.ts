import {
  forgotPasswordRequestSchema,
  loginCodeRequestSchema,
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { AuthService, SignIn } from './auth.service.ts';
import { DEVICE_COOKIE_NAME, deviceCookieHeader, readCookie } from './device-cookie.ts';

const tags = ['auth'];

/** Where the request came from, kept with the session (My account's sessions). */
const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/** The browser keeps the device cookie of a sign-in (ADR 0087); the session itself is answered as the spec says. */
function keepDevice(request: FastifyRequest, reply: FastifyReply, signIn: SignIn) {
  reply.header('set-cookie', deviceCookieHeader(signIn.device, request.protocol === 'https'));
  return { success: true as const, data: signIn.session };
}

/** The seven authentication endpoints of the spec, with its exact payloads and answers, and the sign-in code. */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/login',
    { schema: { tags, body: loginRequestSchema, response: { 200: successEnvelope(sessionSchema) } } },
    async (request, reply) => {
      const device = readCookie(request.headers.cookie, DEVICE_COOKIE_NAME);
      return keepDevice(request, reply, await auth.login(request.body, clientOf(request), device));
    },
  );

  // A one-time code by e-mail: the way past a spent account budget from a browser not used before (ADR 0087).
  app.post(
    '/login-code',
    { schema: { tags, body: loginCodeRequestSchema, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: { message: await auth.requestLoginCode(request.body, request.ip) },
    }),
  );

  app.post(
    '/register',
    { schema: { tags, body: registerRequestSchema, response: { 201: successEnvelope(sessionSchema) } } },
    async (request, reply) => {
      reply.status(201);
      return keepDevice(request, reply, await auth.register(request.body, clientOf(request)));
    },
  );

  app.post(
    '/refresh',
    { schema: { tags, body: refreshRequestSchema, response: { 200: successEnvelope(refreshResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: await auth.refresh(request.body.refreshToken, clientOf(request)),
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
