import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

/** No contract nests deeper; anything deeper is hostile (it overflows recursive code after the parser). */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of arrays and objects in a JSON text, counted without parsing it, so a
 * hostile body costs one pass over its characters. Brackets inside strings are text.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Fastify's own JSON parser (prototype-poisoning protection, empty-body errors) behind a depth
 * check: a body nested deeper than `MAX_JSON_DEPTH` is a 400 before anything reads it.
 */
export function limitJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new AppError('BAD_REQUEST'), undefined);
      return;
    }
    void parse(req, text, done);
  });
}
