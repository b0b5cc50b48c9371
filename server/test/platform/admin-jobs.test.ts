import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordJobFailure } from '../../src/jobs/jobs.queries.ts';
import { call, createTestApp, newAdmin, newUser, type TestApp } from '../support/index.ts';

/** Jobs that failed for good are where an admin can see them: GET /api/admin/jobs/failures. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  for (let i = 1; i <= 23; i++) {
    await recordJobFailure(t.db, { jobId: `job-${String(i)}`, queue: i % 2 ? 'mail.send' : 'payments.refund-transaction', payload: { n: i }, error: new Error(`attempt failed ${String(i)}`), attempts: 6 });
  }
  await t.db.updateTable('job_failures').set({ resolved_at: new Date() }).where('job_id', 'in', ['job-23', 'job-22']).execute();
});
afterAll(() => t.close());

const list = (token: string | undefined, query = '') => call(t.app, { url: `/api/admin/jobs/failures${query}`, token });

describe('GET /api/admin/jobs/failures', () => {
  it('lists failed jobs to admins, newest first, 20 a page, with their payload and error', async () => {
    const admin = await newAdmin(t.db);
    const first = await list(admin.token);
    expect(first.statusCode).toBe(200);
    const page = first.data.json as { data: { job_id: string; queue: string; payload: unknown; error: string; attempts: number; resolved_at: string | null }[]; last_page: number };
    expect(page.last_page).toBe(2);
    expect(page.data).toHaveLength(20);
    expect(page.data[0]).toMatchObject({ job_id: 'job-23', queue: 'mail.send', payload: { n: 23 }, error: 'Error: attempt failed 23', attempts: 6 });
    expect(typeof page.data[0]?.resolved_at).toBe('string');
    const second = (await list(admin.token, '?page=2')).data.json as { data: unknown[] };
    expect(second.data).toHaveLength(3);
    const open = (await list(admin.token, '?unresolved=1')).data.json as { data: { job_id: string }[]; last_page: number };
    expect(open.data.map((f) => f.job_id)).not.toContain('job-23');
    expect(open.data[0]?.job_id).toBe('job-21');
  });

  it('is for admins only: 401 for guests, 403 for users', async () => {
    expect((await list(undefined)).statusCode).toBe(401);
    const user = await newUser(t.db);
    const res = await list(user.token);
    expect(res.statusCode).toBe(403);
    expect(res.data).toEqual({ status: 'error', code: 'FORBIDDEN', text: 'Недостаточно прав' });
  });

  it('refuses malformed queries with Russian field errors', async () => {
    const admin = await newAdmin(t.db);
    for (const query of ['?page=0', '?page=x', '?unresolved=yes', '?page=1&page=2']) {
      const res = await list(admin.token, query);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
    }
  });
});
