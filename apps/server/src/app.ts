import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { fileURLToPath } from 'node:url';
import type { DestinationStream } from 'pino';
import type { AppContext } from './context.ts';
import { logOptions } from './lib/redact.ts';
import { registerAuthentication } from './plugins/authenticate.ts';
import { registerDemoGuard } from './plugins/demo-guard.ts';
import { registerCompression } from './plugins/compression.ts';
import { SESSION_CHANNEL } from './modules/auth/index.ts';
import { registerBodyDepthLimit } from './plugins/body-depth.ts';
import { registerDocs } from './plugins/docs.ts';
import { envelopeServerOptions, notFoundEnvelope, registerErrorHandling } from './plugins/errors.ts';
import { collectRouteMethods, methodNotAllowedEnvelope } from './plugins/method-not-allowed.ts';
import { registerRequestMetrics } from './plugins/request-metrics.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerSpa } from './plugins/spa.ts';
import { endAllEventStreams } from './modules/activity/index.ts';
import { SANDBOX_PREFIX } from './providers/meta/meta-provider.ts';

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Fastify writes two info lines per request, which bury everything else in a terminal: one line per request, at
 * debug (`LOG_LEVEL=debug` shows them). A response that failed to be sent stays an error.
 */
class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    request.log.debug({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** `logStream` sends the log lines elsewhere than standard output (a test reads them). */
export async function buildApp(
  ctx: AppContext,
  options: { logger?: boolean; logStream?: DestinationStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    // Tokens travel in the query (SSE stream, OAuth returns, the sandbox's token exchange): see lib/redact.ts.
    logger: options.logger === false ? false : logOptions(ctx.config.logLevel, options.logStream),
    logController: new RequestLog(),
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    ...envelopeServerOptions,
  }).withTypeProvider<ZodTypeProvider>();

  const { modules } = ctx;
  const { sessions } = modules.auth;
  const { memberships } = modules.workspaces;
  // Sessions are cached only while this process hears the database's session notifications (ADR 0014).
  let unlistenSessions: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlistenSessions = await ctx.database.listen(SESSION_CHANNEL, {
      // The session cache and the membership cache forget a user on the same announcements.
      onMessage: (payload) => {
        sessions.listener.onMessage(payload);
        memberships.listener.onMessage(payload);
      },
      onReset: (listening) => {
        sessions.listener.onReset?.(listening);
        memberships.listener.onReset?.(listening);
      },
    });
  });
  app.addHook('onClose', async () => {
    await unlistenSessions?.();
    sessions.listener.onReset?.(false);
    memberships.listener.onReset?.(false);
  });
  // Saved settings are read, and watched for saves in other processes, before the first request (ADR 0044).
  app.addHook('onReady', () => ctx.settingsStore.start());
  app.addHook('onClose', () => ctx.settingsStore.stop());

  // Once the server is closing, each answer ends its connection: a kept-alive connection that went idle after the
  // close began would otherwise hold the close open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  if (ctx.config.role === 'worker') {
    // A worker serves no API: at most the probes and its metrics, on HEALTH_PORT (main.ts).
    await registerWorkerRoutes(app, ctx);
    return app;
  }

  // External plugins first, then our own, then routes.
  await registerSecurity(app, {
    https: ctx.config.publicUrl.startsWith('https://'),
    requestsPerMinute: ctx.config.rateLimitMax,
    exempt: modules.metrics.isScraper,
  });
  // Before any route: it hooks each route as it is declared.
  await registerCompression(app);
  await registerDocs(app);
  registerErrorHandling(app, (event) => ctx.metrics.serverError(event));
  registerRequestMetrics(app, ctx.metrics);
  registerBodyDepthLimit(app);
  registerAuthentication(app, {
    accessTokens: modules.auth.accessTokens,
    sessions: modules.auth.service,
    memberships: modules.workspaces.service,
    agents: modules.agents.authenticator,
    demo: { workspaceOf: (visitorId) => modules.demo.service.workspaceOf(visitorId) },
  });
  // A demo session's writes are refused before any route runs (ADR 0185).
  registerDemoGuard(app);
  // A revoked agent credential ends its MCP sessions in every API process (ADR 0152).
  let unlistenRevocations: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlistenRevocations = await ctx.database.listen(modules.agents.revocations.channel, {
      onMessage: (credentialId) => modules.agents.revocations.announce(credentialId),
    });
  });
  app.addHook('onClose', async () => {
    await unlistenRevocations?.();
  });

  await app.register(
    async (api) => {
      const methodsOf = collectRouteMethods(api);
      api.setNotFoundHandler((request, reply) => {
        const allowed = methodsOf(request.url);
        if (allowed.length > 0 && !allowed.includes(request.method))
          return reply
            .status(405)
            .header('allow', allowed.join(', '))
            .send(methodNotAllowedEnvelope(request.method, request.url, allowed));
        return reply.status(404).send(notFoundEnvelope(request.method, request.url));
      });
      // Each module's routes, closed over its own services.
      await api.register(modules.health.routes);
      await api.register(modules.metrics.routes);
      await api.register(modules.auth.routes, { prefix: '/auth' });
      await api.register(modules.demo.routes, { prefix: '/demo' });
      await api.register(modules.adAccounts.routes, { prefix: '/ad-accounts' });
      await api.register(modules.admin.routes, { prefix: '/admin' });
      await api.register(modules.rules.routes, { prefix: '/rules' });
      await api.register(modules.rules.proposalRoutes, { prefix: '/proposals' });
      await api.register(modules.rules.proposalLinkRoutes, { prefix: '/proposal-links' });
      await api.register(modules.notifications.routes, { prefix: '/notifications' });
      await api.register(modules.notifications.emailVerificationRoutes, { prefix: '/email-verification' });
      await api.register(modules.reports.routes, { prefix: '/reports' });
      await api.register(modules.reports.scheduleRoutes, { prefix: '/reports/schedules' });
      await api.register(modules.settings.routes, { prefix: '/settings' });
      await api.register(modules.diagnostics.routes, { prefix: '/diagnostics' });
      await api.register(modules.ai.routes, { prefix: '/ai' });
      await api.register(modules.subscription.routes, { prefix: '/subscription' });
      await api.register(modules.subscription.billingRoutes, { prefix: '/billing' });
      await api.register(modules.activity.routes, { prefix: '/logs' });
      await api.register(modules.workspaces.routes, { prefix: '/workspaces' });
      await api.register(modules.account.routes, { prefix: '/account' });
      await api.register(modules.account.exportRoutes, { prefix: '/account' });
      await api.register(modules.workspaces.invitationRoutes, { prefix: '/invitations' });
      await api.register(modules.agents.routes, { prefix: '/tokens' });
      await api.register(modules.agents.policyRoutes, { prefix: '/workspaces' });
      await api.register(modules.agents.consentRoutes, { prefix: '/oauth' });
      await api.register(modules.entities.routes, { prefix: '/entities' });
      await api.register(modules.outbound.routes, { prefix: '/mail' });
    },
    { prefix: '/api' },
  );
  // The MCP endpoint and the OAuth endpoints its clients discover: their own formats, outside /api (ADR 0152, 0153).
  await app.register(modules.agents.oauthRoutes);
  await app.register(modules.mcp.routes);
  // Open log streams would hold the server's close until their tokens expire: end them first.
  app.addHook('preClose', async () => {
    endAllEventStreams();
    await modules.activity.stream.close();
    await modules.mcp.close();
  });
  // The embedded default's stand-in for Meta: same wire format, served by this process.
  if (ctx.meta.sandbox) await app.register(ctx.meta.sandbox.plugin, { prefix: SANDBOX_PREFIX });

  const spa = await registerSpa(app, ctx.config.webDistDir ?? DEFAULT_WEB_DIST);
  app.setNotFoundHandler((request, reply) => {
    // History fallback: any other GET of a page path (not a missing file) is a client-side route.
    const path = request.url.split('?')[0] ?? '/';
    const isPageRoute = request.method === 'GET' && !path.startsWith('/sandbox/') && !/\.[a-z0-9]+$/i.test(path);
    if (spa && isPageRoute)
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile(spa.htmlFor(path));
    return reply.status(404).send(notFoundEnvelope(request.method, request.url));
  });
  return app;
}

/**
 * A worker's only HTTP (HEALTH_PORT): the probes and its metrics, under the same guard, error envelope and sessions
 * as the API's (ADR 0083, 0084). The worker's jobs, Meta calls and rule actions are counted in its own process, so
 * they can only be scraped from it.
 */
async function registerWorkerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerErrorHandling(app, (event) => ctx.metrics.serverError(event));
  registerRequestMetrics(app, ctx.metrics);
  const { modules } = ctx;
  registerAuthentication(app, {
    accessTokens: modules.auth.accessTokens,
    sessions: modules.auth.service,
    memberships: modules.workspaces.service,
  });
  await app.register(
    async (api) => {
      await api.register(modules.health.routes);
      await api.register(modules.metrics.routes);
    },
    { prefix: '/api' },
  );
  app.setNotFoundHandler((request, reply) => reply.status(404).send(notFoundEnvelope(request.method, request.url)));
}
