import type { $ZodType, input, output } from 'zod/v4/core';

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

/** Where a route is and who may call it: the part of a descriptor the browser needs. */
export interface Endpoint {
  readonly method: HttpMethod;
  /** Fastify-style path; parameters as `:name`. */
  readonly path: string;
  readonly access: Access;
}

/**
 * A route descriptor: the one definition of a call that server and widgets both use. Schemas
 * are any zod 4 schema (classic for replies, zod/mini for what the browser parses too).
 */
export interface RouteContract extends Endpoint {
  readonly summary: string;
  readonly tags: readonly string[];
  readonly query?: $ZodType;
  readonly params?: $ZodType;
  readonly body?: $ZodType;
  /** Schema of `json` in the success envelope, or of the raw reply when `raw` is set. */
  readonly response: $ZodType;
  /** `multipart` bodies carry files besides the fields in `body`. */
  readonly bodyType?: 'json' | 'multipart' | 'form';
  /** The reply is not wrapped in the envelope (webhooks, 204 replies). */
  readonly raw?: boolean;
  /** Verified by a signature instead of a session: no CSRF check. */
  readonly signed?: boolean;
}

export const defineRoute = <const R extends RouteContract>(route: R): R => route;

type Infer<T> = T extends $ZodType ? output<T> : undefined;
type InferIn<T> = T extends $ZodType ? input<T> : undefined;

export type ResponseOf<R extends RouteContract> = output<R['response']>;
export type QueryOf<R extends RouteContract> = Infer<R['query']>;
export type ParamsOf<R extends RouteContract> = Infer<R['params']>;
export type BodyOf<R extends RouteContract> = Infer<R['body']>;

/** What a caller passes: inputs before coercion and defaults. */
export type RequestOf<R extends RouteContract> = (R['query'] extends $ZodType ? { query: InferIn<R['query']> } : { query?: undefined }) &
  (R['params'] extends $ZodType ? { params: InferIn<R['params']> } : { params?: undefined }) &
  (R['body'] extends $ZodType ? { body: InferIn<R['body']> | FormData } : { body?: undefined });

/**
 * A route as the browser sees it: its endpoint, typed by its whole contract (through `import
 * type`, so no schema of the contract reaches the browser). `kit.call` takes these.
 */
export interface ClientRoute<R extends RouteContract = RouteContract> extends Endpoint {
  /** Never set: carries the contract's type. */
  readonly contract?: R;
}

/** The endpoints of a feature typed by its contract (`typeof billingRoutes`). */
export function clientRoutes<T extends Record<string, RouteContract>>(paths: { readonly [K in keyof T]: Endpoint }): { readonly [K in keyof T]: ClientRoute<T[K]> } {
  return paths;
}

/** Fills `:name` parameters of a route path. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
