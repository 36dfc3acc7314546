import {
  mailConsentSchema,
  mailLinkInputSchema,
  mailLinkPreviewSchema,
  mailLinkQuerySchema,
  OUTBOUND_MAIL_MESSAGES,
  successEnvelope,
} from '@adpilot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { OutboundMail } from './outbound-mail.ts';

const tags = ['mail'];

/** A one-click unsubscribe (RFC 8058): the mail program POSTs this form to the List-Unsubscribe address. */
const oneClickSchema = z.strictObject({ 'List-Unsubscribe': z.literal('One-Click') });
const unsubscribeQuerySchema = z.strictObject({ token: z.string().min(1).max(1000).optional() });

/**
 * /api/mail: the links of outbound mail (ADR 0092). Public: the signed token is the authority, and it can only say
 * what its own address wants from its workspace. Reading changes nothing; the pages confirm or unsubscribe with a
 * POST after the person presses the button, and a mail program's one-click POST unsubscribes at once.
 */
export const outboundRoutes: FastifyPluginAsyncZod<{ outbound: OutboundMail }> = async (app, { outbound }) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get(
    '/link',
    {
      schema: {
        tags,
        querystring: mailLinkQuerySchema,
        response: { 200: successEnvelope(mailLinkPreviewSchema) },
      },
    },
    async (request) => ({ success: true as const, data: await outbound.preview(request.query.token) }),
  );

  app.post(
    '/confirm',
    { schema: { tags, body: mailLinkInputSchema, response: { 200: successEnvelope(mailConsentSchema) } } },
    async (request) => ({
      success: true as const,
      data: { state: await outbound.answer(request.body.token, 'confirm') },
    }),
  );

  app.post(
    '/unsubscribe',
    {
      schema: {
        tags,
        description:
          'The unsubscribe page posts `{ token }`; a mail program posts the form `List-Unsubscribe=One-Click` to the List-Unsubscribe address, which carries the token in its query (RFC 8058).',
        querystring: unsubscribeQuerySchema,
        body: z.union([mailLinkInputSchema, oneClickSchema]),
        response: { 200: successEnvelope(mailConsentSchema) },
      },
    },
    async (request) => {
      const token = 'token' in request.body ? request.body.token : request.query.token;
      if (!token) throw AppError.badRequest(OUTBOUND_MAIL_MESSAGES.linkInvalid, 'MAIL_LINK_INVALID');
      return { success: true as const, data: { state: await outbound.answer(token, 'unsubscribe') } };
    },
  );
};
