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

/**
 * What an account must do before anything else, in order (`users.setup_steps`), each with the
 * code every other call is refused with while it is pending: `password` — set a new password (a
 * temporary one `admin:create` printed, or the own password of an account just made staff);
 * `second_factor` — staff enrol the second factor (a TOTP app and recovery codes) before any call.
 */
export const SETUP_STEPS = { password: 'PASSWORD_CHANGE_REQUIRED', second_factor: 'SECOND_FACTOR_SETUP_REQUIRED' } as const;
export type SetupStep = keyof typeof SETUP_STEPS;

/** Kinds of file an upload may be, decided by the file's content (magic bytes), never by its name or declared type. */
export const FILE_KINDS = {
  png: { mime: 'image/png', label: 'PNG' },
  jpeg: { mime: 'image/jpeg', label: 'JPEG' },
  webp: { mime: 'image/webp', label: 'WebP' },
  gif: { mime: 'image/gif', label: 'GIF' },
  pdf: { mime: 'application/pdf', label: 'PDF' },
  mp4: { mime: 'video/mp4', label: 'MP4' },
  webm: { mime: 'video/webm', label: 'WebM' },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

/** One file field of a multipart route. */
export interface FileFieldSpec {
  /** Kinds accepted, by content. */
  readonly accept: readonly FileKind[];
  /** Largest file, in bytes. */
  readonly maxBytes: number;
  /** The request is refused without it. */
  readonly required?: boolean;
}

/**
 * A multipart route: its text fields are validated by the route's `body` schema (with the same
 * per-field Russian errors as JSON routes), its files by these limits. A refused request stores
 * nothing.
 */
export interface MultipartSpec {
  readonly files: Readonly<Record<string, FileFieldSpec>>;
  /** File parts in one request, over all fields. */
  readonly maxFiles: number;
  /** All files of one request together, in bytes. */
  readonly maxTotalBytes: number;
  /**
   * Without files, the fields may come as a JSON body instead (`application/json`): a text-only
   * call skips the multipart parser.
   */
  readonly json?: true;
}

/**
 * A route answered with Server-Sent Events instead of one reply: each event's data is JSON of
 * its schema. An error after the stream opened arrives as an `error` event carrying the error
 * envelope; before that, as a normal error reply.
 */
export interface StreamSpec {
  readonly events: Readonly<Record<string, $ZodType>>;
}

/** Where a route is and who may call it: the part of a descriptor the browser needs. */
export interface Endpoint {
  readonly method: HttpMethod;
  /** Fastify-style path; parameters as `:name`. */
  readonly path: string;
  readonly access: Access;
  /** The body goes as `multipart/form-data` (the contract says which files, the browser only that it does). */
  readonly multipart?: true | MultipartSpec;
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
  /** Schema of `json` in the success envelope, or of the raw reply when `raw` is set (unused by `stream` routes). */
  readonly response: $ZodType;
  /** The body is `multipart/form-data`: fields as `body` says, files as this says. */
  readonly multipart?: MultipartSpec;
  /** The reply is a stream of Server-Sent Events. */
  readonly stream?: StreamSpec;
  /** The reply is not wrapped in the envelope (webhooks, 204 replies). */
  readonly raw?: boolean;
  /** Verified by a signature instead of a session: no CSRF check. */
  readonly signed?: boolean;
  /** Does this setup step, so it works while the step is pending; every other route then refuses with the step's code (`SETUP_STEPS`). */
  readonly setupStep?: SetupStep;
}

export const defineRoute = <const R extends RouteContract>(route: R): R => route;

type Infer<T> = T extends $ZodType ? output<T> : undefined;
type InferIn<T> = T extends $ZodType ? input<T> : undefined;

export type ResponseOf<R extends RouteContract> = output<R['response']>;
export type QueryOf<R extends RouteContract> = Infer<R['query']>;
export type ParamsOf<R extends RouteContract> = Infer<R['params']>;
export type BodyOf<R extends RouteContract> = Infer<R['body']>;

/** Files a caller sends to a multipart route, by field (a field may take several). */
export type FilesOf<R extends RouteContract> = R['multipart'] extends MultipartSpec ? { files?: Partial<Record<keyof R['multipart']['files'], Blob | readonly Blob[]>> } : { files?: undefined };

/** What a caller passes: inputs before coercion and defaults. */
export type RequestOf<R extends RouteContract> = (R['query'] extends $ZodType ? { query: InferIn<R['query']> } : { query?: undefined }) &
  (R['params'] extends $ZodType ? { params: InferIn<R['params']> } : { params?: undefined }) &
  (R['body'] extends $ZodType ? { body: InferIn<R['body']> | FormData } : { body?: undefined }) &
  FilesOf<R>;

/** One event of a `stream` route: its name and its data. */
export type StreamEventOf<R extends RouteContract> = R['stream'] extends StreamSpec
  ? { [K in keyof R['stream']['events'] & string]: { event: K; data: output<R['stream']['events'][K]> } }[keyof R['stream']['events'] & string]
  : never;

/**
 * A route as the browser sees it: its endpoint, typed by its whole contract (through `import
 * type`, so no schema of the contract reaches the browser). `kit.call` takes these.
 */
export interface ClientRoute<R extends RouteContract = RouteContract> extends Endpoint {
  /** Never set: carries the contract's type. */
  readonly contract?: R;
}

/** The endpoints of a feature typed by its contract (`ClientRoutes<typeof billingRoutes>`). */
export type ClientRoutes<T extends Record<string, RouteContract>> = { readonly [K in keyof T]: ClientRoute<T[K]> };

/** The endpoints of a feature typed by its contract (`typeof billingRoutes`). */
export function clientRoutes<T extends Record<string, RouteContract>>(paths: { readonly [K in keyof T]: Endpoint }): ClientRoutes<T> {
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
