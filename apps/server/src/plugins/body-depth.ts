import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/**
 * How deep a JSON body may nest. Far beyond any request of ours (a rule's condition groups nest a few levels;
 * RULE_LIMITS.groupDepthMax), far below what recursive validation and serialisation survive on the stack.
 */
export const MAX_BODY_DEPTH = 64;

export const BODY_TOO_DEEP_MESSAGE = `Request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels)`;

/**
 * Whether JSON text opens more than `limit` arrays or objects inside one another: brackets inside strings are not
 * counted (a backslash escapes the next character). One pass, no allocation, and it stops at the first bracket past
 * the limit, so a body of a million brackets costs no more than reading it. Malformed text is left to the parser.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Replaces the JSON body parser for every route with the same parser behind a depth check (ADR 0062): a body nested
 * past the limit is a 400 `BODY_TOO_DEEP` before `JSON.parse` and zod, whose recursion would otherwise overflow the
 * stack (a 500). Prototype-poisoning checks stay as Fastify's own parser has them.
 */
export function registerBodyDepthLimit(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestedDeeperThan(text, MAX_BODY_DEPTH)) {
      done(new AppError('BODY_TOO_DEEP', BODY_TOO_DEEP_MESSAGE, 400), undefined);
      return;
    }
    parse(request, text, done);
  });
}
