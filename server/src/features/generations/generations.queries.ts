import { sql, type Insertable } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import type { ProductVariant } from '@app/contracts';
import type { GenerationFilesTable, GenerationStatus, GenerationsTable } from './generations.table.ts';

const columns = ['id', 'user_id', 'product_id', 'variant', 'product_name', 'model_name', 'status', 'progress', 'prompt', 'wallet', 'cost', 'hold_id', 'error', 'text_result', 'created_at', 'finished_at'] as const;

export const findOwnGeneration = (db: Executor, userId: number, id: number) =>
  db.selectFrom('generations').select(columns).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
export type GenerationRow = NonNullable<Awaited<ReturnType<typeof findOwnGeneration>>>;

export const countGenerations = async (db: Executor, userId: number, variants: readonly ProductVariant[]) =>
  (await db.selectFrom('generations').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('variant', 'in', variants).executeTakeFirstOrThrow()).n;

/** A page of the user's runs of `variants`, newest first. */
export const pageOfGenerations = (db: Executor, userId: number, variants: readonly ProductVariant[], offset: number, limit: number) =>
  db.selectFrom('generations').select(columns).where('user_id', '=', userId).where('variant', 'in', variants).orderBy('id', 'desc').offset(offset).limit(limit).execute();

/**
 * Serialises the transactions of one user in `scope` until they end (a transaction-level advisory
 * lock): what they count and then insert cannot be raced by another of the user's requests.
 */
export const lockUserScope = (tx: Tx, scope: string, userId: number) => sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}:${String(userId)}`}, 0))`.execute(tx);

/** Runs of the user queued or running. */
export const countActive = async (db: Executor, userId: number) =>
  (await db.selectFrom('generations').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow()).n;

/** The output files of runs, in order. */
export const outputFiles = (db: Executor, ids: readonly number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('generation_files as g')
        .innerJoin('files as f', 'f.id', 'g.file_id')
        .select(['g.generation_id', 'f.id', 'f.content_type'])
        .where('g.generation_id', 'in', ids)
        .where('g.role', '=', 'output')
        .orderBy('g.generation_id')
        .orderBy('g.position')
        .execute();

/** Stores a new run and answers its id. */
export const insertGeneration = async (db: Executor, values: Insertable<GenerationsTable>) => (await db.insertInto('generations').values(values).returning('id').executeTakeFirstOrThrow()).id;

/** Names a stored file as one of a run's inputs, its mask or one of its results. */
export const addRunFile = (db: Executor, generationId: number, fileId: number, role: GenerationFilesTable['role'], position: number) =>
  db.insertInto('generation_files').values({ generation_id: generationId, file_id: fileId, role, position }).execute();

/** Records the hold that pays for a run. */
export const setRunHold = (db: Executor, id: number, holdId: number) => db.updateTable('generations').set({ hold_id: holdId }).where('id', '=', id).execute();

/** The input files of a run (the user's image, the mask) with their storage keys. */
export const inputFiles = (db: Executor, id: number) =>
  db
    .selectFrom('generation_files as g')
    .innerJoin('files as f', 'f.id', 'g.file_id')
    .select(['g.role', 'f.storage_key', 'f.content_type'])
    .where('g.generation_id', '=', id)
    .where('g.role', 'in', ['input', 'mask'])
    .orderBy('g.role')
    .orderBy('g.position')
    .execute();

/** A run with what its job needs: the model (its setting too) and its connection. */
export const runOf = (db: Executor, id: number) =>
  db
    .selectFrom('generations as g')
    .leftJoin('ai_models as m', 'm.id', 'g.model_id')
    .leftJoin('provider_connections as c', 'c.id', 'm.connection_id')
    .select([
      'g.id',
      'g.user_id',
      'g.product_name',
      'g.variant',
      'g.status',
      'g.prompt',
      'g.inputs',
      'g.wallet',
      'g.cost',
      'g.progress',
      'g.hold_id',
      'g.provider_ref',
      'g.attempts',
      'm.provider_model',
      'm.setting',
      'm.words_per_token',
      'm.max_output_tokens',
      'c.id as connection_id',
      'c.name as connection_name',
      'c.protocol',
      'c.base_url',
      'c.api_key_env',
      'c.timeout_seconds',
      'c.active as connection_active',
      'c.updated_at as connection_updated_at',
    ])
    .where('g.id', '=', id)
    .executeTakeFirst();

/** The run a provider's prediction belongs to (the newest, should an id ever repeat). */
export const runOfPrediction = async (db: Executor, predictionId: string) =>
  (await db.selectFrom('generations').select('id').where('provider_ref', '=', predictionId).orderBy('id', 'desc').limit(1).executeTakeFirst())?.id;

/** Keeps the provider's id of a running run's prediction: a retry picks it up again, a webhook finds the run by it. */
export const setProviderRef = (db: Executor, id: number, ref: string) =>
  db.updateTable('generations').set({ provider_ref: ref, updated_at: sql<Date>`now()` }).where('id', '=', id).where('status', '=', 'running').execute();

export const isRunning = async (db: Executor, id: number) => (await db.selectFrom('generations').select('id').where('id', '=', id).where('status', '=', 'running').executeTakeFirst()) !== undefined;

/**
 * The channel on which every change of a run's status or progress is told, by the statement that
 * makes it (so only on commit, and to every process): `{"id", "status", "progress"}` as JSON.
 */
export const GENERATION_CHANNEL = 'ns_generation';

/** `pg_notify` of the rows a data-modifying CTE named `changed` answered (its id, status and progress). */
const notifyChanged = sql<string>`pg_notify(${GENERATION_CHANNEL}, json_build_object('id', changed.id, 'status', changed.status, 'progress', changed.progress)::text)`;

/** A run's owner, status and progress (what its event stream starts from). */
export const runState = (db: Executor, id: number) => db.selectFrom('generations').select(['user_id', 'status', 'progress']).where('id', '=', id).executeTakeFirst();

/** Marks a queued (or re-picked running) run as running; answers false when it is already final. */
export const markRunning = async (db: Executor, id: number) =>
  (
    await db
      .with('changed', (qb) =>
        qb
          .updateTable('generations')
          .set({ status: 'running', started_at: sql<Date>`coalesce(started_at, now())`, attempts: sql<number>`attempts + 1`, updated_at: sql<Date>`now()` })
          .where('id', '=', id)
          .where('status', 'in', ['queued', 'running'])
          .returning(['id', 'status', 'progress']),
      )
      .selectFrom('changed')
      .select(notifyChanged.as('notified'))
      .execute()
  ).length > 0;

export const setProgress = (db: Executor, id: number, progress: number) =>
  db
    .with('changed', (qb) =>
      qb
        .updateTable('generations')
        .set({ progress, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('progress', '<', progress)
        .returning(['id', 'status', 'progress']),
    )
    .selectFrom('changed')
    .select(notifyChanged.as('notified'))
    .execute();

/** Ends a run still in `from` states; answers its hold when this call ended it. */
export const finishRun = (db: Executor, id: number, from: readonly GenerationStatus[], end: { status: GenerationStatus; cost?: number; error?: string | null; errorDetail?: string | null; text?: string | null }) =>
  db
    .with('changed', (qb) =>
      qb
        .updateTable('generations')
        .set({
          status: end.status,
          ...(end.status === 'succeeded' ? { progress: 100 } : {}),
          ...(end.cost === undefined ? {} : { cost: end.cost }),
          ...(end.error === undefined ? {} : { error: end.error }),
          ...(end.errorDetail === undefined ? {} : { error_detail: end.errorDetail }),
          ...(end.text === undefined ? {} : { text_result: end.text }),
          finished_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('status', 'in', from)
        .returning(['id', 'status', 'progress', 'hold_id', 'user_id', 'wallet', 'variant', 'created_at']),
    )
    .selectFrom('changed')
    .select(['hold_id', 'user_id', 'wallet', 'variant', 'created_at', notifyChanged.as('notified')])
    .executeTakeFirst();

export const noteAttemptError = (db: Executor, id: number, detail: string) => db.updateTable('generations').set({ error_detail: detail, updated_at: sql<Date>`now()` }).where('id', '=', id).execute();

/** Marks a running run alive (its job is still at work). */
export const touchRun = (db: Executor, id: number) => db.updateTable('generations').set({ updated_at: sql<Date>`now()` }).where('id', '=', id).where('status', '=', 'running').execute();

/**
 * Claims runs still `queued` that no job will run: after `seconds` without a job (it failed for
 * good or was lost), or after `fetchedSeconds` with only a job a worker fetched that long ago
 * (a live worker marks its run running at once; that one died between the two, and pg-boss would
 * leave its job active until it expires). Each is touched so that one sweep sends it again. Runs
 * waiting in a long queue, or just fetched, have their job and are left alone. Answers their ids.
 */
export const claimLostQueuedRuns = async (db: Executor, seconds: number, fetchedSeconds: number) => {
  const jobOf = sql`j.name = 'generations.run' and j.data->>'generationId' = g.id::text`;
  const fetchedBefore = sql<Date>`now() - make_interval(secs => ${fetchedSeconds})`;
  return (
    await db
      .updateTable('generations as g')
      .set({ updated_at: sql<Date>`now()` })
      .where('g.status', '=', 'queued')
      .where('g.updated_at', '<', fetchedBefore)
      .where(sql<boolean>`not exists (select 1 from pgboss.job j where ${jobOf} and (j.state in ('created', 'retry') or (j.state = 'active' and j.started_on >= ${fetchedBefore})))`)
      .where(
        sql<boolean>`(g.updated_at < now() - make_interval(secs => ${seconds}) or exists (select 1 from pgboss.job j where ${jobOf} and j.state = 'active' and j.started_on < ${fetchedBefore}))`,
      )
      .returning('g.id')
      .execute()
  ).map((r) => r.id);
};

/**
 * Claims runs left `running` without a sign of life for `seconds` (their worker died): each
 * claimed row is touched so that one sweep, in one process, sends it again. Answers their ids.
 */
export const claimStaleRuns = async (db: Executor, seconds: number) =>
  (
    await db
      .updateTable('generations')
      .set({ updated_at: sql<Date>`now()` })
      .where('status', '=', 'running')
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .returning('id')
      .execute()
  ).map((r) => r.id);
