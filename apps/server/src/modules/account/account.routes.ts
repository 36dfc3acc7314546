import {
  ACCOUNT_MESSAGES,
  accountExportParamsSchema,
  accountSchema,
  accountSessionListSchema,
  accountSessionParamsSchema,
  changePasswordSchema,
  deleteAccountSchema,
  messageResponseSchema,
  successEnvelope,
  updateAccountSchema,
  workspaceTransferListSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { AccountService } from './account.service.ts';

const tags = ['account'];

/** /api/account (issue 31): the signed-in person's own account; never an agent's (`requireUser`). */
export const accountRoutes: FastifyPluginAsyncZod<{ account: AccountService }> = async (app, { account }) => {
  app.addHook('onRequest', app.requireUser);

  app.get('/', { schema: { tags, response: { 200: successEnvelope(accountSchema) } } }, async (request) => ({
    success: true as const,
    data: await account.get(currentUser(request).id),
  }));

  app.patch(
    '/',
    { schema: { tags, body: updateAccountSchema, response: { 200: successEnvelope(accountSchema) } } },
    async (request) => ({
      success: true as const,
      data: await account.update(currentUser(request).id, request.body),
    }),
  );

  app.post(
    '/export',
    { schema: { tags, response: { 202: successEnvelope(messageResponseSchema) } } },
    async (request, reply) => {
      await account.requestExport(currentUser(request).id);
      return reply.code(202).send({ success: true as const, data: { message: ACCOUNT_MESSAGES.exportQueued } });
    },
  );

  app.post(
    '/password',
    { schema: { tags, body: changePasswordSchema, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => {
      const user = currentUser(request);
      await account.changePassword(user.id, user.sessionId, request.body);
      return { success: true as const, data: { message: ACCOUNT_MESSAGES.passwordChanged } };
    },
  );

  app.get(
    '/sessions',
    { schema: { tags, response: { 200: successEnvelope(accountSessionListSchema) } } },
    async (request) => {
      const user = currentUser(request);
      return { success: true as const, data: await account.sessions(user.id, user.sessionId) };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: { tags, params: accountSessionParamsSchema, response: { 200: successEnvelope(messageResponseSchema) } },
    },
    async (request) => {
      await account.endSession(currentUser(request).id, request.params.id);
      return { success: true as const, data: { message: ACCOUNT_MESSAGES.sessionEnded } };
    },
  );

  app.get(
    '/handovers',
    { schema: { tags, response: { 200: successEnvelope(workspaceTransferListSchema) } } },
    async (request) => ({ success: true as const, data: await account.handovers(currentUser(request).id) }),
  );

  app.delete(
    '/',
    { schema: { tags, body: deleteAccountSchema, response: { 200: successEnvelope(messageResponseSchema) } } },
    async (request) => ({
      success: true as const,
      data: await account.delete(currentUser(request).id, request.body),
    }),
  );
};

/** GET /api/account/export/:token: the e-mailed link; the token is the credential, and it works once. */
export const accountExportRoutes: FastifyPluginAsyncZod<{ account: AccountService }> = async (app, { account }) => {
  app.get('/export/:token', { schema: { tags, params: accountExportParamsSchema } }, async (request, reply) => {
    const archive = await account.downloadExport(request.params.token);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', 'attachment; filename="adpilot-my-data.zip"')
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .send(archive);
  });
};
