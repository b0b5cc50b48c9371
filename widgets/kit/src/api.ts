import { buildPath, UNKNOWN_ERROR_MESSAGE, type ClientRoute, type RequestOf, type ResponseOf, type RouteContract } from '@app/contracts/browser';
import { errorMessage, fieldErrors } from './errors.ts';
import { getToken } from './session.ts';

/** A failed call: `message` is ready to show, `fields` holds per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly text: unknown,
  ) {
    super(errorMessage(text));
  }
  get fields(): Record<string, string[]> {
    return fieldErrors(this.text);
  }
}

function readCookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

async function ensureCsrfCookie(force = false): Promise<string | undefined> {
  if (!force) {
    const existing = readCookie('XSRF-TOKEN');
    if (existing) return existing;
  }
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin' });
  return readCookie('XSRF-TOKEN');
}

function toQuery(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function readEnvelope(res: Response): Promise<{ status?: unknown; json?: unknown; text?: unknown; code?: unknown }> {
  try {
    return (await res.json()) as { status?: unknown; json?: unknown; text?: unknown; code?: unknown };
  } catch {
    return {};
  }
}

/** How one call is sent, beside what the route describes. */
export interface CallOptions {
  /**
   * Send a PUT, PATCH or DELETE route as a POST with `_method` in the body (Laravel method
   * spoofing, which the server routes to the real method), as the seed's reset call does.
   */
  spoofMethod?: boolean;
}

/** The body of a spoofed call: the route's own fields plus `_method`. */
function withMethodField(body: unknown, method: string): FormData | Record<string, unknown> {
  if (body instanceof FormData) {
    const copy = new FormData();
    for (const [key, value] of body) copy.append(key, value);
    copy.set('_method', method);
    return copy;
  }
  return { ...(body && typeof body === 'object' ? body : {}), _method: method };
}

/** Files go as parts of a FormData beside the route's fields (multipart routes). */
function withFiles(body: unknown, files: Record<string, Blob | readonly Blob[] | undefined> | undefined): FormData {
  const form = new FormData();
  if (body instanceof FormData) {
    for (const [key, value] of body) form.append(key, value);
  } else if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      form.append(key, typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value));
    }
  }
  for (const [field, value] of Object.entries(files ?? {})) {
    for (const file of value instanceof Blob ? [value] : (value ?? [])) form.append(field, file, file instanceof File ? file.name : field);
  }
  return form;
}

/**
 * Sends a contract route's request with the bearer token from browser storage. Unauthenticated
 * posts first fetch the CSRF cookie and echo it (Sanctum); a 419 refreshes it and retries once.
 * A network failure is an ApiError with status 0; an abort rejects with the signal's reason.
 */
export async function send<R extends RouteContract>(route: ClientRoute<R>, request: RequestOf<R>, options: CallOptions & { accept?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const req = request as { query?: unknown; params?: Record<string, string | number>; body?: unknown; files?: Record<string, Blob | readonly Blob[] | undefined> };
  const url = buildPath(route.path, req.params) + toQuery(req.query);
  const spoof = options.spoofMethod === true && route.method !== 'GET' && route.method !== 'POST';
  const method = spoof ? 'POST' : route.method;
  const fields = spoof ? withMethodField(req.body, route.method) : req.body;
  const payload = route.multipart || req.files ? withFiles(fields, req.files) : fields;
  const attempt = async (forceCsrf: boolean): Promise<Response> => {
    const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (route.method !== 'GET') {
      const xsrf = await ensureCsrfCookie(forceCsrf);
      if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
    }
    let body: BodyInit | undefined;
    if (payload instanceof FormData) {
      body = payload;
    } else if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(payload);
    }
    return fetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  };
  try {
    const res = await attempt(false);
    return res.status === 419 ? await attempt(true) : res;
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова');
  }
}

function errorFrom(status: number, envelope: { text?: unknown; code?: unknown }): ApiError {
  const code = typeof envelope.code === 'string' ? envelope.code : undefined;
  // The account was blocked while the page was open: the page says so, whichever widget asked
  // (the notice is a chunk of its own: a page loads it only then).
  if (code === 'ACCOUNT_BLOCKED') void import('./blocked.ts').then((m) => m.showAccountBlocked());
  return new ApiError(status, code, envelope.text ?? UNKNOWN_ERROR_MESSAGE);
}

/** A failed reply as an ApiError (seed §8: its `text` is the message). */
export const failure = async (res: Response): Promise<ApiError> => errorFrom(res.status, await readEnvelope(res));

/**
 * Calls a contract route and answers its `json`. Failed replies are read like normal ones:
 * their `text` becomes the error's message. Multipart routes take their files in `files`.
 */
export async function call<R extends RouteContract>(route: ClientRoute<R>, request: RequestOf<R> = {} as RequestOf<R>, options: CallOptions & { signal?: AbortSignal } = {}): Promise<ResponseOf<R>> {
  const res = await send(route, request, options);
  const envelope = await readEnvelope(res);
  if (envelope.status === 'success' && res.ok) return envelope.json as ResponseOf<R>;
  throw errorFrom(res.status, envelope);
}
