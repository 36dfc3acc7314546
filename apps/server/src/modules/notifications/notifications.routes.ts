import {
  confirmEmailRequestSchema,
  messageResponseSchema,
  notificationSettingsSavedSchema,
  notificationSettingsSchema,
  notificationTestRequestSchema,
  notificationTestResultSchema,
  successEnvelope,
  updateNotificationSettingsSchema,
  webhookSecretSchema,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/authenticate.ts';
import type { NotificationsService } from './notifications.service.ts';

interface NotificationsRoutesDeps {
  notifications: NotificationsService;
}

const tags = ['notifications'];

/** /api/notifications: the signed-in user's own settings; there is no id to name anyone else's. */
export const notificationsRoutes: FastifyPluginAsyncZod<NotificationsRoutesDeps> = async (app, { notifications }) => {
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/',
    { schema: { tags, response: { 200: successEnvelope(notificationSettingsSchema) } } },
    async (request) => ({
      success: true as const,
      data: await notifications.get(currentUser(request).id),
    }),
  );

  app.put(
    '/',
    {
      schema: {
        tags,
        body: updateNotificationSettingsSchema,
        response: { 200: successEnvelope(notificationSettingsSavedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await notifications.update(currentUser(request).id, request.body),
    }),
  );

  app.post(
    '/webhook/secret',
    {
      schema: { tags, body: z.strictObject({}).nullish(), response: { 200: successEnvelope(webhookSecretSchema) } },
    },
    async (request) => ({ success: true as const, data: await notifications.rotateSecret(currentUser(request).id) }),
  );

  // Resend: a new confirmation link for the account's address (ADR 0054).
  app.post(
    '/email/verification',
    {
      schema: {
        tags,
        body: z.strictObject({}).nullish(),
        response: { 200: successEnvelope(notificationSettingsSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await notifications.requestVerification(currentUser(request).id),
    }),
  );

  app.post(
    '/test',
    {
      schema: {
        tags,
        body: notificationTestRequestSchema,
        response: { 200: successEnvelope(notificationTestResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await notifications.sendTest(currentUser(request).id, request.body.channel),
    }),
  );
};

/** /api/email-verification: the confirmation link's page posts here, signed in or not; the token says whose. */
export const emailVerificationRoutes: FastifyPluginAsyncZod<NotificationsRoutesDeps> = async (
  app,
  { notifications },
) => {
  app.post(
    '/confirm',
    {
      schema: { tags, body: confirmEmailRequestSchema, response: { 200: successEnvelope(messageResponseSchema) } },
    },
    async (request) => ({
      success: true as const,
      data: await notifications.confirmEmail(request.body.token),
    }),
  );
};
