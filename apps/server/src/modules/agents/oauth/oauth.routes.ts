import { AGENT_SCOPES, oauthAuthorizationQuerySchema } from '@adpilot/contracts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../../lib/app-error.ts';
import { clientRegistrationSchema } from './oauth-params.ts';
import { OAuthError, type OAuthService } from './oauth.service.ts';

/** The consent page of the web app, where GET /oauth/authorize sends the browser. */
export const CONSENT_PAGE = '/oauth/consent';
const FORM_LIMIT_BYTES = 8 * 1024;

/**
 * The OAuth endpoints MCP clients discover (ADR 0153), outside /api since they speak OAuth's own formats rather than
 * the envelope: the protected resource's metadata (RFC 9728, at the root and at the MCP endpoint's path), the
 * authorization server's metadata (RFC 8414), registration (RFC 7591), authorization (which hands the browser to the
 * consent page) and the token endpoint. Hidden from the API document.
 */
export const oauthRoutes: FastifyPluginAsync<{ oauth: OAuthService }> = async (app, { oauth }) => {
  const hide = { hide: true };

  const protectedResource = () => ({
    resource: oauth.resource,
    authorization_servers: [oauth.issuer],
    scopes_supported: [...AGENT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'AdPilot',
    resource_documentation: `${oauth.issuer}/settings/api-tokens`,
  });
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])
    app.get(path, { schema: hide }, async (_request, reply) => {
      reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
      return protectedResource();
    });

  app.get('/.well-known/oauth-authorization-server', { schema: hide }, async (_request, reply) => {
    reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
    return {
      issuer: oauth.issuer,
      authorization_endpoint: `${oauth.issuer}/oauth/authorize`,
      token_endpoint: `${oauth.issuer}/oauth/token`,
      registration_endpoint: `${oauth.issuer}/oauth/register`,
      scopes_supported: [...AGENT_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: false,
    };
  });

  // The token endpoint's body is a form (RFC 6749 §4.1.3); a parameter given twice is refused (§3.2).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => {
      const form: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(String(body))) {
        if (Object.hasOwn(form, name)) {
          done(new OAuthError(400, 'invalid_request', `The parameter ${name} is given more than once`), undefined);
          return;
        }
        form[name] = value;
      }
      done(null, form);
    },
  );

  const sendOAuthError = (reply: FastifyReply, error: OAuthError) =>
    reply
      .status(error.status)
      .header('cache-control', 'no-store')
      .send({ error: error.error, error_description: error.description });

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    throw error;
  });

  app.post('/oauth/register', { schema: hide }, async (request, reply) => {
    const body = clientRegistrationSchema.safeParse(request.body);
    if (!body.success) throw new OAuthError(400, 'invalid_client_metadata', 'redirect_uris (1 to 5 URIs) are required');
    const registered = await oauth.register(body.data, request.ip);
    reply.status(201).header('cache-control', 'no-store');
    return registered;
  });

  app.get('/oauth/authorize', { schema: hide }, async (request, reply) => {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const consentPage = `${oauth.issuer}${CONSENT_PAGE}${search}`;
    const query = oauthAuthorizationQuerySchema.safeParse(request.query);
    // Without a known client and one of its redirect URIs nothing goes back to the client (OAuth 2.1 §4.1.2.1): the
    // consent page says what is wrong.
    if (!query.success) return reply.redirect(consentPage, 302);
    try {
      await oauth.checkClient(query.data);
    } catch (error) {
      if (error instanceof AppError) return reply.redirect(consentPage, 302);
      throw error;
    }
    const checked = await oauth.check(query.data);
    if ('error' in checked)
      return reply.redirect(oauth.errorRedirect(query.data, checked.error, checked.description), 302);
    return reply.redirect(consentPage, 302);
  });

  app.post('/oauth/token', { schema: hide }, async (request, reply) => {
    const form = request.body;
    if (
      !form ||
      typeof form !== 'object' ||
      Array.isArray(form) ||
      Object.values(form).some((v) => typeof v !== 'string')
    )
      throw new OAuthError(400, 'invalid_request', 'The body is a form (application/x-www-form-urlencoded)');
    const fields = form as Record<string, string>;
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    if (fields.grant_type === 'authorization_code') return oauth.exchangeCode(fields);
    if (fields.grant_type === 'refresh_token') return oauth.refresh(fields);
    throw new OAuthError(400, 'unsupported_grant_type', 'grant_type is authorization_code or refresh_token');
  });
};
