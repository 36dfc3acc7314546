import type { ErrorEnvelope } from '@adpilot/contracts';
import type { FastifyInstance } from 'fastify';

/** A route's path as a pattern over concrete paths: `:name` one segment, `*` the rest, a trailing slash optional. */
function patternOf(url: string): RegExp {
  const body = url
    .replace(/\/$/, '')
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`);
}

/**
 * The methods each path of `app` answers, collected as its routes are declared (call before registering them). A
 * path that exists with other methods than the one asked is answered 405 with `Allow` instead of 404 (RFC 9110).
 */
export function collectRouteMethods(app: FastifyInstance): (url: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().map((method) => String(method).toUpperCase());
    routes.push({ pattern: patternOf(route.url), methods });
  });
  return (url) => {
    const path = url.split('?')[0] ?? '/';
    const allowed = new Set(routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods));
    return [...allowed].sort();
  };
}

export function methodNotAllowedEnvelope(method: string, url: string, allowed: string[]): ErrorEnvelope {
  return {
    success: false,
    message: `${method} is not allowed on ${url.split('?')[0]?.slice(0, 200)}: use ${allowed.join(', ')}`,
    code: 'METHOD_NOT_ALLOWED',
  };
}
