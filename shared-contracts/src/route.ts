import type { z } from './zod-ru.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route:
 * - `public`: anyone, signed in or not;
 * - `guest`: anyone (used for sign-in forms), CSRF-checked for unauthenticated posts;
 * - `user`: a signed-in user;
 * - `confirmed`: a signed-in user whose email is confirmed;
 * - `admin`: a signed-in admin.
 */
export type Access = 'public' | 'guest' | 'user' | 'confirmed' | 'admin';

/** A route descriptor: the one definition of a call that server and widgets both use. */
export interface RouteContract {
  readonly method: HttpMethod;
  /** Fastify-style path; parameters as `:name`. */
  readonly path: string;
  readonly access: Access;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly query?: z.ZodType;
  readonly params?: z.ZodType;
  readonly body?: z.ZodType;
  /** Schema of `json` in the success envelope, or of the raw reply when `raw` is set. */
  readonly response: z.ZodType;
  /** `multipart` bodies carry files besides the fields in `body`. */
  readonly bodyType?: 'json' | 'multipart' | 'form';
  /** The reply is not wrapped in the envelope (webhooks, 204 replies). */
  readonly raw?: boolean;
  /** Verified by a signature instead of a session: no CSRF check. */
  readonly signed?: boolean;
}

export const defineRoute = <const R extends RouteContract>(route: R): R => route;

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
type InferIn<T> = T extends z.ZodType ? z.input<T> : undefined;

export type ResponseOf<R extends RouteContract> = z.output<R['response']>;
export type QueryOf<R extends RouteContract> = Infer<R['query']>;
export type ParamsOf<R extends RouteContract> = Infer<R['params']>;
export type BodyOf<R extends RouteContract> = Infer<R['body']>;

/** What a caller passes: inputs before coercion and defaults. */
export type RequestOf<R extends RouteContract> = (R['query'] extends z.ZodType ? { query: InferIn<R['query']> } : { query?: undefined }) &
  (R['params'] extends z.ZodType ? { params: InferIn<R['params']> } : { params?: undefined }) &
  (R['body'] extends z.ZodType ? { body: InferIn<R['body']> | FormData } : { body?: undefined });

/** Fills `:name` parameters of a route path. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
