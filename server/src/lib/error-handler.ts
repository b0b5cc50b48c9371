import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorCode, type ErrorEnvelope, type ErrorText } from '@app/contracts';
import { AppError } from './app-error.ts';
import { schemaFieldErrors } from './field-errors.ts';
import { isBalanceRefused, isDatabaseUnavailable } from '../db/database.ts';

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
};

export function sendError(reply: FastifyReply, code: ErrorCode, text?: ErrorText): FastifyReply {
  const body: ErrorEnvelope = { status: 'error', text: text ?? ERROR_CODES[code].message, code };
  return reply.code(ERROR_CODES[code].status).type('application/json; charset=utf-8').send(body);
}

/** Router-level failures, before any route or hook: a URL that does not decode, a parameter over `maxParamLength`. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_MAX_PARAM_LENGTH: 'NOT_FOUND',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
};

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route runs gets the error
 * envelope too (Fastify's default is a JSON of its own). Sent as text: no route's serializer is
 * set up for such a request.
 */
export function frameworkErrorReply(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const code = FRAMEWORK_CODES[error.code] ?? 'BAD_REQUEST';
  const body: ErrorEnvelope = { status: 'error', text: ERROR_CODES[code].message, code };
  void reply.code(ERROR_CODES[code].status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** One error handler: the seed's envelope for every failure; 5xx details stay in the log. */
export function installErrorHandler(app: FastifyInstance, renderPageError: (req: FastifyRequest, reply: FastifyReply, status: number) => FastifyReply): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) req.log.error({ err: error }, 'request failed');
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      return sendError(reply, error.code, error.text);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendError(reply, 'VALIDATION', schemaFieldErrors(error.validation));
    }
    if (error.validation) {
      return sendError(reply, 'VALIDATION', schemaFieldErrors(error.validation.map((v) => ({ instancePath: v.instancePath, message: ERROR_CODES.VALIDATION.message }))));
    }
    if (isDatabaseUnavailable(error)) {
      // Lost, frozen or saturated database: a clear, retryable answer; the pool replaces broken connections.
      req.log.warn({ err: error }, 'database unavailable');
      void reply.header('retry-after', '5');
      if (!req.url.startsWith('/api') && !req.url.startsWith('/sanctum')) return renderPageError(req, reply, 503);
      return sendError(reply, 'SERVICE_UNAVAILABLE');
    }
    // A transaction whose hold the balance no longer covered at its commit (spent meanwhile by another).
    if (isBalanceRefused(error)) return sendError(reply, 'INSUFFICIENT_TOKENS');
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return sendError(reply, mapped);
    if (error.statusCode === 429) return sendError(reply, 'RATE_LIMITED');
    if (isResponseSerializationError(error)) {
      req.log.error({ err: error, issues: error.cause.issues }, 'reply does not match its contract');
    } else {
      req.log.error({ err: error }, 'unhandled error');
    }
    if (!req.url.startsWith('/api') && !req.url.startsWith('/sanctum')) return renderPageError(req, reply, 500);
    return sendError(reply, 'INTERNAL');
  });

  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ max: 60, timeWindow: '1 minute' }) },
    (req, reply) => {
      if (req.url.startsWith('/api') || req.url.startsWith('/sanctum')) return sendError(reply, 'NOT_FOUND');
      return renderPageError(req, reply, 404);
    },
  );
}
