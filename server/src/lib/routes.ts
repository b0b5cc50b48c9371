import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, RequestPayload, RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, FILE_KINDS, SETUP_STEPS, type SetupStep, successEnvelope, ErrorEnvelopeSchema, type BodyOf, type ErrorEnvelope, type MultipartSpec, type ParamsOf, type QueryOf, type ResponseOf, type RouteContract, type StreamSpec } from '@app/contracts';
import { AppError } from './app-error.ts';
import { readFields, type UploadedFile } from './multipart.ts';
import { SseStream, type SseSink } from './sse.ts';
import { isDatabaseUnavailable } from '../db/database.ts';
import type { Viewer } from '../features/accounts/viewer.ts';
import { TOKEN_BODY_MAX_BYTES, XSRF_COOKIE, XSRF_HEADER, verifyCsrf } from '../features/accounts/csrf.ts';

type ViewerFor<R extends RouteContract> = R['access'] extends 'user' | 'confirmed' | 'admin' ? Viewer : Viewer | null;

export interface RouteContext<R extends RouteContract> {
  req: FastifyRequest;
  reply: FastifyReply;
  query: QueryOf<R>;
  params: ParamsOf<R>;
  body: BodyOf<R>;
  viewer: ViewerFor<R>;
  /** Files of a multipart route, by field, checked by content and limits. */
  files: R['multipart'] extends MultipartSpec ? Partial<Record<keyof R['multipart']['files'], UploadedFile[]>> : undefined;
}

/** A JSON route answers its `json`; a stream route writes events and answers nothing. */
export type RouteHandler<R extends RouteContract> = R['stream'] extends StreamSpec
  ? (ctx: RouteContext<R> & { stream: SseSink<R['stream']> }) => Promise<void>
  : (ctx: RouteContext<R>) => Promise<ResponseOf<R>>;

const SPOOFABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const needsUser = (contract: Pick<RouteContract, 'access'>) => contract.access !== 'public' && contract.access !== 'guest';
const needsCsrf = (req: FastifyRequest, contract: Pick<RouteContract, 'signed'>) => !SAFE_METHODS.has(req.method) && !contract.signed && req.viewer?.via !== 'bearer';

/** Checks who may call `contract` and, for cookie-authenticated or anonymous posts, the CSRF token. */
export function authorize(req: FastifyRequest, contract: Pick<RouteContract, 'access' | 'signed' | 'setupStep'>): void {
  const viewer = req.viewer;
  // No viewer means the call can change nothing: 401 (sign in again), not 419, for a stale token.
  if (needsUser(contract) && !viewer) throw new AppError('UNAUTHENTICATED');
  if (needsCsrf(req, contract)) verifyCsrf(req);
  if (!needsUser(contract) || !viewer) return;
  if (viewer.blocked) throw new AppError('ACCOUNT_BLOCKED');
  // What the account must do first (a new password: one someone else chose, or an account just made staff; then staff's second factor).
  if (viewer.setupStep && contract.setupStep !== viewer.setupStep) throw setupRequired(viewer, viewer.setupStep);
  if (contract.access === 'admin' && viewer.role !== 'admin') throw new AppError('FORBIDDEN');
  if (contract.access === 'confirmed' && !viewer.emailConfirmed) throw new AppError('EMAIL_NOT_CONFIRMED');
}

/** The refusal of a call made before the viewer's pending setup step is done, in the words that fit the viewer. */
const SETUP_REFUSALS: { [S in SetupStep]: (viewer: Viewer) => AppError } = {
  // An account just made staff replaces its own password, not a temporary one: it is told why.
  password: (viewer) => (viewer.passwordTemporary ? new AppError(SETUP_STEPS.password) : new AppError(SETUP_STEPS.password, 'Сначала задайте новый пароль: вас назначили администратором')),
  second_factor: () => new AppError(SETUP_STEPS.second_factor),
};
const setupRequired = (viewer: Viewer, step: SetupStep): AppError => SETUP_REFUSALS[step](viewer);

/**
 * Whether the CSRF token may still come in the body (`_token` of a plain HTML form, or of a small
 * JSON body) rather than in its header: then the access check has to wait for the body.
 */
function csrfTokenInBody(req: FastifyRequest, contract: Pick<RouteContract, 'signed'>): boolean {
  if (!needsCsrf(req, contract) || req.headers[XSRF_HEADER] !== undefined || !req.cookies[XSRF_COOKIE]) return false;
  const length = Number(req.headers['content-length']);
  return /^(application\/x-www-form-urlencoded|application\/json)\s*(;|$)/i.test(req.headers['content-type'] ?? '') && length >= 0 && length <= TOKEN_BODY_MAX_BYTES;
}

type HookDone = (err?: Error) => void;

/** A body the refusal would otherwise leave Node to read and throw away: larger than a form's, or of unknown length. */
const hasLargeBody = (req: FastifyRequest) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > TOKEN_BODY_MAX_BYTES;

/**
 * The access check of a route as hooks: `preParsing` — after the rate limit and the session
 * lookup (`onRequest`), before a byte of the body is read, so a guest's or a stranger's 45 MB
 * upload costs the service nothing (refused, the connection closes unread) — unless a CSRF token
 * may still come in a small form body: then the check runs after that body is parsed, in
 * `preValidation`, with the same statuses in the same order.
 */
export function accessHooks(contract: Pick<RouteContract, 'access' | 'signed'>): {
  preParsing: (req: FastifyRequest, reply: FastifyReply, payload: RequestPayload, done: (err: Error | null, payload?: RequestPayload) => void) => void;
  preValidation: (req: FastifyRequest, reply: FastifyReply, done: HookDone) => void;
} {
  return {
    preParsing: (req, reply, payload, done) => {
      try {
        if (!csrfTokenInBody(req, contract)) authorize(req, contract);
        else if (needsUser(contract) && !req.viewer) throw new AppError('UNAUTHENTICATED');
        done(null, payload);
      } catch (err) {
        // The connection closes after the refusal rather than reading a large body to throw it away.
        if (hasLargeBody(req)) void reply.header('connection', 'close');
        done(err as Error);
      }
    },
    preValidation: (req, _reply, done) => {
      try {
        if (csrfTokenInBody(req, contract)) authorize(req, contract);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  };
}

/** The error envelope of a failure, as a stream's `error` event carries it. */
function envelopeOf(err: unknown): ErrorEnvelope {
  if (err instanceof AppError) return { status: 'error', text: err.text, code: err.code };
  const code = isDatabaseUnavailable(err) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL';
  return { status: 'error', text: ERROR_CODES[code].message, code };
}

/** The OpenAPI description of a multipart body: its fields and its files. */
function multipartDoc(contract: RouteContract, spec: MultipartSpec): z.ZodType {
  const fields = contract.body instanceof z.ZodObject ? (contract.body.shape as z.ZodRawShape) : {};
  const files = Object.fromEntries(
    Object.entries(spec.files).map(([name, f]) => {
      const file = z.string().meta({ format: 'binary', description: `${f.accept.map((k) => FILE_KINDS[k].label).join(', ')}, до ${String(Math.round(f.maxBytes / 1024 / 1024))} МБ` });
      return [name, f.required ? file : file.optional()];
    }),
  );
  return z.object({ ...fields, ...files });
}

/** The OpenAPI description of a stream: one object per event. */
function streamDoc(spec: StreamSpec): z.ZodType {
  const events = Object.entries(spec.events).map(([event, data]) => z.object({ event: z.literal(event), data }));
  const [first, ...rest] = events;
  if (!first) throw new Error('a stream route needs at least one event');
  return rest.length ? z.union([first, ...rest]) : first;
}

/** Body validation of a multipart route happens as its parts are read, not by Fastify. */
const multipartValidator: FastifySchemaCompiler<z.ZodType> = (route) => (route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route));

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Registers one contract route: who may call it is checked before its body is read
 * ({@link accessHooks}; `extra.preParsing` hooks run after that check), Fastify validates query,
 * params and body with the contract's schemas, the reply is wrapped in the seed's envelope and
 * serialized through the contract's response schema, so a reply can never drift from what widgets
 * expect. A `multipart` route's fields and files are read and checked before the handler runs; a
 * `stream` route's handler writes Server-Sent Events.
 */
export function mountRoute<R extends RouteContract>(app: FastifyInstance, contract: R, handler: RouteHandler<R>, extra: Partial<RouteOptions> = {}): void {
  const streamSpec = contract.stream;
  const multipart = contract.multipart;
  const responseSchema = contract.raw ? contract.response : successEnvelope(contract.response);
  const ok = streamSpec ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: streamDoc(streamSpec) } } } : responseSchema;
  const body = multipart ? multipartDoc(contract, multipart) : contract.body;
  const access = accessHooks(contract);
  const route = {
    ...extra,
    method: contract.method,
    url: contract.path,
    ...(multipart ? { validatorCompiler: multipartValidator } : {}),
    schema: {
      summary: contract.summary,
      tags: [...contract.tags],
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.params ? { params: contract.params } : {}),
      ...(body ? { body } : {}),
      ...(multipart ? { consumes: multipart.json ? ['multipart/form-data', 'application/json'] : ['multipart/form-data'] } : {}),
      ...(streamSpec ? { produces: ['text/event-stream'] } : {}),
      response: { 200: ok, '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
      ...(contract.access === 'public' || contract.access === 'guest' ? {} : { security: [{ bearer: [] }, { session: [] }] }),
    },
    preParsing: [access.preParsing, ...hooksOf(extra.preParsing)],
    preValidation: [access.preValidation, ...hooksOf(extra.preValidation)],
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      // An open stream holds one of its user's slots until it ends or its client goes away; taken
      // first, so a refused stream reads no body and stores nothing.
      const release = streamSpec && req.viewer ? app.streamSlots.take(req.viewer.id) : undefined;
      if (release) reply.raw.once('close', release);
      const read = multipart
        ? await readFields(req, multipart, contract.body).catch((err: unknown) => {
            release?.();
            throw err;
          })
        : undefined;
      const context = {
        req,
        reply,
        query: req.query as QueryOf<R>,
        params: req.params as ParamsOf<R>,
        body: (read ? read.fields : req.body) as BodyOf<R>,
        viewer: req.viewer as ViewerFor<R>,
        files: read?.files as RouteContext<R>['files'],
      };
      if (streamSpec) {
        const stream = new SseStream(reply, streamSpec, app.ctx.config.sseHeartbeatSeconds, app.ctx.config.env !== 'production');
        try {
          await (handler as (ctx: RouteContext<R> & { stream: SseSink<StreamSpec> }) => Promise<void>)({ ...context, stream });
        } catch (err) {
          // Before the first event the failure is an ordinary error reply (status and envelope).
          if (!stream.opened) {
            stream.discard();
            throw err;
          }
          if (!stream.signal.aborted && (!(err instanceof AppError) || err.status >= 500)) req.log.error({ err }, 'stream failed');
          stream.fail(envelopeOf(err));
        } finally {
          // A handler that sent nothing still answers a (empty) stream, not a half-made reply.
          stream.end();
          release?.();
        }
        return reply;
      }
      const result = await (handler as (ctx: RouteContext<R>) => Promise<ResponseOf<R>>)(context);
      return contract.raw ? result : { status: 'success' as const, json: result };
    },
  };
  app.withTypeProvider<ZodTypeProvider>().route(route as RouteOptions);
}

/**
 * Laravel-style method spoofing: a POST whose body has `_method: PATCH|PUT|DELETE` is handled
 * as that method, through the full pipeline of the target route. Only paths that have such a
 * route pay for the check: call this before the routes are registered. For those paths without
 * a POST of their own, a POST route is registered that only dispatches. Who may call is checked
 * before the body is read, so every route of a spoofable path (POST and the spoofed methods) must
 * have the same access and signing; a path that mixes them stops the start.
 */
export function enableMethodSpoofing(app: FastifyInstance, contracts: readonly RouteContract[]): void {
  const spoofable = new Map<string, RouteContract>();
  for (const c of contracts.filter((r) => SPOOFABLE.has(r.method))) spoofable.set(c.path, c);
  const postPaths = new Set(contracts.filter((c) => c.method === 'POST').map((c) => c.path));
  for (const [path, target] of spoofable) {
    const mixed = contracts.find((c) => c.path === path && (c.method === 'POST' || SPOOFABLE.has(c.method)) && (c.access !== target.access || Boolean(c.signed) !== Boolean(target.signed)));
    if (mixed) throw new Error(`method spoofing: ${mixed.method} ${path} has other access than ${target.method} ${path}`);
  }
  const dispatch = async (req: FastifyRequest, reply: FastifyReply) => {
    const spoofed = spoofedMethod(req.body);
    if (!spoofed) return;
    const { _method: _, ...payload } = req.body as Record<string, unknown>;
    const headers = { ...req.headers };
    delete headers['content-length'];
    delete headers['content-type'];
    // A plain form's `_token` goes on as the header, so the target checks it before reading its body.
    if (headers[XSRF_HEADER] === undefined && typeof payload._token === 'string') headers[XSRF_HEADER] = payload._token;
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
    for (const [path, target] of spoofable) {
      if (postPaths.has(path)) continue;
      scope.post(path, { schema: { hide: true }, ...accessHooks(target) }, () => Promise.reject(new AppError('METHOD_NOT_ALLOWED')));
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
