import { JSON_DEPTH_MAX, nestedDeeperThan } from '@adpilot/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

export const BODY_TOO_DEEP_MESSAGE = `Request body is nested too deeply (more than ${JSON_DEPTH_MAX} levels)`;

/**
 * Replaces the JSON body parser for every route with the same parser behind a depth check (ADR 0062): a body nested
 * past JSON_DEPTH_MAX is a 400 `BODY_TOO_DEEP` before `JSON.parse` and zod, whose recursion would otherwise overflow
 * the stack (a 500). Prototype-poisoning checks stay as Fastify's own parser has them.
 */
export function registerBodyDepthLimit(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestedDeeperThan(text, JSON_DEPTH_MAX)) {
      done(new AppError('BODY_TOO_DEEP', BODY_TOO_DEEP_MESSAGE, 400), undefined);
      return;
    }
    parse(request, text, done);
  });
}
