import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, ErrorEnvelopeSchema, type BodyOf, type ParamsOf, type QueryOf, type ResponseOf, type RouteContract } from '@app/contracts';
import { AppError } from './app-error.ts';
import type { Viewer } from '../features/accounts/viewer.ts';
import { verifyCsrf } from '../features/accounts/csrf.ts';

type ViewerFor<R extends RouteContract> = R['access'] extends 'user' | 'confirmed' | 'admin' ? Viewer : Viewer | null;

export interface RouteContext<R extends RouteContract> {
  req: FastifyRequest;
  reply: FastifyReply;
  query: QueryOf<R>;
  params: ParamsOf<R>;
  body: BodyOf<R>;
  viewer: ViewerFor<R>;
}

export type RouteHandler<R extends RouteContract> = (ctx: RouteContext<R>) => Promise<ResponseOf<R>>;

const SPOOFABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Checks who may call `contract` and, for cookie-authenticated or anonymous posts, the CSRF token. */
export function authorize(req: FastifyRequest, contract: RouteContract): void {
  const viewer = req.viewer;
  const needsUser = contract.access !== 'public' && contract.access !== 'guest';
  // No viewer means the call can change nothing: 401 (sign in again), not 419, for a stale token.
  if (needsUser && !viewer) throw new AppError('UNAUTHENTICATED');
  if (!SAFE_METHODS.has(req.method) && !contract.signed && viewer?.via !== 'bearer') {
    verifyCsrf(req);
  }
  if (!needsUser || !viewer) return;
  if (viewer.blocked) throw new AppError('ACCOUNT_BLOCKED');
  if (contract.access === 'admin' && viewer.role !== 'admin') throw new AppError('FORBIDDEN');
  if (contract.access === 'confirmed' && !viewer.emailConfirmed) throw new AppError('EMAIL_NOT_CONFIRMED');
}

/**
 * Registers one contract route: Fastify validates query, params and body with the contract's
 * schemas, the reply is wrapped in the seed's envelope and serialized through the contract's
 * response schema, so a reply can never drift from what widgets expect.
 */
export function mountRoute<R extends RouteContract>(app: FastifyInstance, contract: R, handler: RouteHandler<R>, extra: Partial<RouteOptions> = {}): void {
  const responseSchema = contract.raw ? contract.response : successEnvelope(contract.response);
  const route = {
    ...extra,
    method: contract.method,
    url: contract.path,
    schema: {
      summary: contract.summary,
      tags: [...contract.tags],
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.body && contract.bodyType !== 'multipart' ? { body: contract.body } : {}),
      response: { 200: responseSchema, '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
      ...(contract.access === 'public' || contract.access === 'guest' ? {} : { security: [{ bearer: [] }, { session: [] }] }),
    },
    preValidation: (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      try {
        authorize(req, contract);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const result = await handler({
        req,
        reply,
        query: req.query as QueryOf<R>,
        params: req.params as ParamsOf<R>,
        body: req.body as BodyOf<R>,
        viewer: req.viewer as ViewerFor<R>,
      });
      return contract.raw ? result : { status: 'success' as const, json: result };
    },
  };
  app.withTypeProvider<ZodTypeProvider>().route(route as RouteOptions);
}

/**
 * Laravel-style method spoofing: a POST whose body has `_method: PATCH|PUT|DELETE` is handled
 * as that method, through the full pipeline of the target route. Only paths that have such a
 * route pay for the check: call this before the routes are registered. For those paths without
 * a POST of their own, a POST route is registered that only dispatches.
 */
export function enableMethodSpoofing(app: FastifyInstance, contracts: readonly RouteContract[]): void {
  const spoofable = new Set(contracts.filter((c) => SPOOFABLE.has(c.method)).map((c) => c.path));
  const postPaths = new Set(contracts.filter((c) => c.method === 'POST').map((c) => c.path));
  const dispatch = async (req: FastifyRequest, reply: FastifyReply) => {
    const spoofed = spoofedMethod(req.body);
    if (!spoofed) return;
    const { _method: _, ...payload } = req.body as Record<string, unknown>;
    const headers = { ...req.headers };
    delete headers['content-length'];
    delete headers['content-type'];
    const res = await app.inject({
      method: spoofed,
      url: req.url,
      headers,
      payload,
      remoteAddress: req.ip,
    });
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !['content-length', 'transfer-encoding', 'connection', 'date'].includes(name)) {
        void reply.header(name, value);
      }
    }
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !spoofable.has(route.url)) return;
    const existing = route.preValidation;
    route.preValidation = [dispatch, ...(existing ? (Array.isArray(existing) ? existing : [existing]) : [])];
  });
  void app.register(async (scope) => {
    for (const path of spoofable) {
      if (postPaths.has(path)) continue;
      scope.post(path, { schema: { hide: true } }, () => Promise.reject(new AppError('METHOD_NOT_ALLOWED')));
    }
  });
}

function spoofedMethod(body: unknown): 'PUT' | 'PATCH' | 'DELETE' | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)._method;
  if (typeof value !== 'string') return undefined;
  const upper = value.toUpperCase();
  return SPOOFABLE.has(upper) ? (upper as 'PUT' | 'PATCH' | 'DELETE') : undefined;
}
