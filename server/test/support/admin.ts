import type { FastifyInstance, InjectOptions } from 'fastify';
import { call } from './test-app.ts';

/** A page of an admin list. */
export interface Page<T> {
  data: T[];
  last_page: number;
}

/** A line of the audit log as `GET /api/admin/audit` answers it. */
export interface AuditLine {
  actor_id: number | null;
  action: string;
  entity: string;
  entity_id: string;
  before: unknown;
  after: unknown;
}

/** Calls as one user (an admin, unless a test passes another token): the reply, and its `json` typed as the test expects. */
export function adminCalls(app: FastifyInstance, token: string) {
  const send = (method: InjectOptions['method'], url: string, payload?: unknown, as: string | undefined = token) =>
    call(app, { method, url, token: as, payload: payload as InjectOptions['payload'] });
  const json = async <T>(reply: ReturnType<typeof send>): Promise<T> => {
    const res = await reply;
    if (res.statusCode !== 200) throw new Error(`${String(res.statusCode)}: ${res.body}`);
    return res.data.json as T;
  };
  return {
    send,
    /** A GET that must succeed: its `json`. */
    get: <T>(url: string) => json<T>(send('GET', url)),
    /** A change that must succeed: its `json`. */
    change: <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => json<T>(send(method, url, payload)),
    /** Audit lines of `entity:id`, newest first. */
    audit: async (entity: string, id: number | string) => (await json<Page<AuditLine>>(send('GET', `/api/admin/audit?q=${encodeURIComponent(`${entity}:${String(id)}`)}`))).data.filter((a) => a.entity === entity && a.entity_id === String(id)),
  };
}

/** Waits until `read` gives what `ok` accepts (work done by the job workers), 10 s at most. */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
