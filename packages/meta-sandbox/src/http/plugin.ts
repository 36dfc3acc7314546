import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { handleGraphCall } from '../graph/dispatch.ts';
import { GraphError, legacyFeatureRefused } from '../graph/graph-error.ts';
import { mergeParams } from '../graph/params.ts';
import type { GraphRuntime, HttpMethod } from '../graph/runtime.ts';
import type { SandboxPersona } from '../world/types.ts';
import { CONSENT_CSS, renderConsentPage, renderDialogError } from './consent-page.ts';
import { deniedRedirect, readDialogRequest, redirectWith } from './dialog.ts';
import type { AdsManagerAccess } from './ads-manager-access.ts';
import { registerAdsManagerPage } from './ads-manager-page.ts';
import { registerControlRoutes, type SandboxControl } from './control-routes.ts';
import { sandboxRequestSerializer } from './request-log.ts';

export const DEFAULT_GRAPH_VERSION = 'v27.0';
const VERSION = /^v\d{1,2}\.0$/;
const CSS_PATH = '/__sandbox/consent.css';

/** A world as the pages use it: its runtime and its sandbox users. */
export interface HostWorld extends GraphRuntime {
  readonly personas: readonly SandboxPersona[];
}

export interface SandboxHost extends GraphRuntime {
  readonly personas: readonly SandboxPersona[];
  /** The world a `sandbox_world` hint names (none: the default world); undefined when the hint is not well signed. */
  worldOfHint(hint: string | undefined): HostWorld | undefined;
  /** The world holding an ad account, from the tag in its id; undefined when no world holds it. */
  worldOfAccount(act: string): HostWorld | undefined;
  /** Who may open an account's Ads Manager page: the holders of a link AdPilot signed (ads-manager-access.ts). */
  readonly adsManager: AdsManagerAccess;
  readonly allowedRedirects: readonly string[] | undefined;
  readonly control: SandboxControl | undefined;
}

function tokenOf(request: FastifyRequest, params: Record<string, string>): string | undefined {
  if (params.access_token) return params.access_token;
  const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** Where the sandbox is mounted, as the caller reached it, so paging links work behind any prefix. */
function baseUrlOf(app: FastifyInstance, request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${app.prefix}`;
}

function sendGraph(reply: FastifyReply, status: number, headers: Record<string, string>, body: unknown): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .header('content-type', 'application/json; charset=UTF-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}

export const BAD_WORLD_HINT =
  'This sandbox link is not valid: its world does not match its signature. Start connecting again from AdPilot.';

function registerDialog(app: FastifyInstance, host: SandboxHost, cssPath: string): void {
  app.get(CSS_PATH, (_request, reply) => reply.type('text/css; charset=utf-8').send(CONSENT_CSS));

  app.get<{ Params: { version: string } }>('/:version/dialog/oauth', (request, reply) => {
    const params = mergeParams(request.query);
    const dialog = readDialogRequest(params, host.settings.appId, host.allowedRedirects);
    host.stats.record('dialog', undefined, false);
    if ('error' in dialog)
      return reply.code(400).type('text/html; charset=utf-8').send(renderDialogError(dialog.error, cssPath));
    const world = host.worldOfHint(params.sandbox_world);
    if (!world)
      return reply.code(400).type('text/html; charset=utf-8').send(renderDialogError(BAD_WORLD_HINT, cssPath));
    const formAction = `'self' ${new URL(dialog.redirectUri).origin}`;
    return reply
      .type('text/html; charset=utf-8')
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      )
      .header('cache-control', 'no-store')
      .send(
        renderConsentPage({
          appId: host.settings.appId,
          redirectUri: dialog.redirectUri,
          state: dialog.state,
          scopes: dialog.scopes,
          personas: world.personas.map(({ id, name }) => ({ id, name })),
          ...(params.sandbox_world ? { worldHint: params.sandbox_world } : {}),
          actionPath: `${app.prefix}/${request.params.version}/dialog/oauth`,
          cssPath,
        }),
      );
  });

  app.post('/:version/dialog/oauth', (request, reply) => {
    const params = mergeParams(request.body);
    const dialog = readDialogRequest(params, host.settings.appId, host.allowedRedirects);
    if ('error' in dialog)
      return reply.code(400).type('text/html; charset=utf-8').send(renderDialogError(dialog.error, cssPath));
    const world = host.worldOfHint(params.sandbox_world);
    if (!world)
      return reply.code(400).type('text/html; charset=utf-8').send(renderDialogError(BAD_WORLD_HINT, cssPath));
    if (params.decision !== 'allow') return reply.redirect(deniedRedirect(dialog), 302);
    const persona = world.personas.find((candidate) => candidate.id === params.persona) ?? world.personas[0];
    if (!persona)
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(renderDialogError('No sandbox user exists.', cssPath));
    const code = host.codes.issue(
      { personaId: persona.id, world: world.worldKey, scopes: dialog.scopes },
      dialog.redirectUri,
      host.now(),
    );
    return reply.redirect(redirectWith(dialog.redirectUri, { code, state: dialog.state }), 302);
  });
}

function registerGraph(app: FastifyInstance, host: SandboxHost): void {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/*',
    handler: async (request, reply) => {
      const wildcard = (request.params as { '*'?: string })['*'] ?? '';
      const segments = wildcard.split('/').filter(Boolean);
      const version =
        segments[0] !== undefined && VERSION.test(segments[0])
          ? (segments.shift() ?? DEFAULT_GRAPH_VERSION)
          : DEFAULT_GRAPH_VERSION;
      const query = mergeParams(request.query);
      const params = mergeParams(request.query, request.body);
      // The header form of method override is closed to new apps like the `method` parameter (ADR 0120).
      if (request.headers['x-http-method-override'] !== undefined) {
        const refusal = legacyFeatureRefused('method_override');
        return sendGraph(reply, refusal.status, {}, refusal.toBody(host.traceId()));
      }
      const latency = host.faults.nextLatencyMs();
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      const answer = handleGraphCall(host, {
        method: request.method as HttpMethod,
        version,
        segments,
        params,
        query,
        token: tokenOf(request, params),
        baseUrl: baseUrlOf(app, request),
        inBatch: false,
      });
      return sendGraph(reply, answer.status, answer.headers, answer.body);
    },
  });
}

/**
 * The sandbox as a Fastify plugin. Not wrapped in fastify-plugin on purpose: its routes, body parsers and error
 * handler stay inside its own prefix and never change the host app.
 */
export function createSandboxPlugin(host: SandboxHost): FastifyPluginAsync {
  return async (app) => {
    // Every route of the sandbox logs its requests through the redacting serializer, whatever the host's is.
    app.addHook('onRoute', (route) => {
      route.logSerializers = { ...route.logSerializers, req: sandboxRequestSerializer };
    });
    if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(formbody);
    app.setErrorHandler((error, request, reply) => {
      const { statusCode, message } = error as { statusCode?: number; message?: string };
      const status = statusCode ?? 500;
      if (status >= 500) request.log.error(error, 'meta sandbox failed');
      const graphError = new GraphError(
        status >= 500
          ? { message: 'An unknown error has occurred.', code: 1, status: 500, isTransient: true }
          : { message: `(#100) ${message ?? 'Invalid request'}`, code: 100, status },
      );
      return sendGraph(reply, graphError.status, {}, graphError.toBody(host.traceId()));
    });
    const cssPath = `${app.prefix}${CSS_PATH}`;
    registerDialog(app, host, cssPath);
    registerAdsManagerPage(app, host, cssPath);
    if (host.control) registerControlRoutes(app, host.control);
    registerGraph(app, host);
  };
}
