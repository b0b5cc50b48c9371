import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { call, type TestApp, type TestUser } from '../support/index.ts';

/* What the admin AI catalogue's tests share: calls as an admin, audit records, and the catalogue's state. */

export interface Page<T> {
  data: T[];
  last_page: number;
}

export interface Audit {
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  entity: string;
  entity_id: string;
  before: unknown;
  after: unknown;
  names?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Reply = Awaited<ReturnType<typeof call>>;

/** Calls of one admin (or, with `token`, of someone else); every reply's body is kept in `bodies`. */
export function adminCalls(t: TestApp, admin: TestUser) {
  const bodies: string[] = [];
  const send = async (method: Method, url: string, payload: unknown, token: string | undefined): Promise<Reply> => {
    const res = await call(t.app, { method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    bodies.push(res.body);
    return res;
  };
  return {
    bodies,
    get: (url: string, token?: string) => send('GET', url, undefined, token ?? admin.token),
    post: (url: string, payload?: unknown, token?: string) => send('POST', url, payload, token ?? admin.token),
    patch: (url: string, payload: unknown, token?: string) => send('PATCH', url, payload, token ?? admin.token),
    del: (url: string, token?: string) => send('DELETE', url, undefined, token ?? admin.token),
    /** As a guest or with another user's token. */
    as: (token: string | undefined) => ({
      get: (url: string) => send('GET', url, undefined, token),
      post: (url: string, payload?: unknown) => send('POST', url, payload, token),
      patch: (url: string, payload: unknown) => send('PATCH', url, payload, token),
      del: (url: string) => send('DELETE', url, undefined, token),
    }),
    /** The audit records of one record, newest first. */
    audit: async (entity: string, id: number): Promise<Audit[]> => {
      const res = await send('GET', `/api/admin/audit?q=${encodeURIComponent(`${entity}:${String(id)}`)}`, undefined, admin.token);
      return (res.data.json as Page<Audit>).data.filter((a) => a.entity === entity && a.entity_id === String(id));
    },
  };
}

/** The reply's `json`. */
export const json = (res: Reply): unknown => res.data.json;

/** Everything the catalogue holds, to show that a refused request changed nothing. */
export async function catalogState(db: Db) {
  const [categories, products, models, connections, files, audit] = await Promise.all([
    db.selectFrom('ai_categories').selectAll().orderBy('id').execute(),
    db.selectFrom('ai_products').selectAll().orderBy('id').execute(),
    db.selectFrom('ai_models').selectAll().orderBy('id').execute(),
    db.selectFrom('provider_connections').selectAll().orderBy('id').execute(),
    db.selectFrom('files').selectAll().orderBy('id').execute(),
    db.selectFrom('audit_log').select('id').orderBy('id').execute(),
  ]);
  return { categories, products, models, connections, files, audit };
}

/** A refusal: 400 with Russian text (per field, or one message). */
export function expectRefused(res: Reply, label: string, status = 400): void {
  expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
  expect(JSON.stringify(res.data.text), label).toMatch(/[а-яё]/i);
}

/** The field errors of a 400 reply. */
export const fieldErrorsOf = (res: Reply) => res.data.text as Record<string, string[]>;
