import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

const message = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : typeof err === 'string' ? err : JSON.stringify(err)).slice(0, 4000);

/** Records a job that failed its last attempt (once per job). */
export async function recordJobFailure(db: Executor, failure: { jobId: string; queue: string; payload: unknown; error: unknown; attempts: number }): Promise<void> {
  await db
    .insertInto('job_failures')
    .values({ job_id: failure.jobId, queue: failure.queue, payload: JSON.stringify(failure.payload ?? null), error: message(failure.error), attempts: failure.attempts })
    .onConflict((oc) => oc.column('job_id').doNothing())
    .execute();
}

/**
 * Jobs pg-boss failed for good that `job_failures` does not hold yet (a run that outlived
 * `expireInSeconds`, a worker that died): every failed job whose retries are spent.
 */
export async function exhaustedJobs(db: Executor): Promise<{ id: string; name: string; data: unknown; output: unknown; attempts: number }[]> {
  const res = await sql<{ id: string; name: string; data: unknown; output: unknown; attempts: number }>`
    select j.id::text as id, j.name, j.data, j.output, j.retry_count + 1 as attempts
    from pgboss.job j
    where j.state = 'failed' and j.retry_count >= j.retry_limit
      and not exists (select 1 from job_failures f where f.job_id = j.id::text)
    limit 500`.execute(db);
  return res.rows;
}

/** Failed jobs, newest first, for the admin panel. */
export async function listJobFailures(db: Executor, opts: { offset: number; limit: number; unresolvedOnly: boolean }) {
  let query = db.selectFrom('job_failures').selectAll();
  if (opts.unresolvedOnly) query = query.where('resolved_at', 'is', null);
  const [rows, total] = await Promise.all([
    query.orderBy('id', 'desc').offset(opts.offset).limit(opts.limit).execute(),
    db.selectFrom('job_failures').select(db.fn.countAll<number>().as('n')).$if(opts.unresolvedOnly, (q) => q.where('resolved_at', 'is', null)).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
