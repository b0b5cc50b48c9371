import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Generation, ProductVariant } from '@app/contracts';
import type { Db } from '../../src/db/database.ts';
import type { ModelKind, ProviderProtocol } from '../../src/features/ai/ai.table.ts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { newUser, type TestUser } from './builders.ts';
import { multipart, type Part } from './http.ts';
import { call } from './test-app.ts';
import { walletState } from './billing.ts';

/* Runs of generation products through the API, and what a test checks about them afterwards. */

/** A confirmed user with `media` media tokens (whole or tenths: 2.5) and `words` words. */
export async function userWithTokens(db: Db, media: number, words = 0): Promise<TestUser> {
  const user = await newUser(db);
  await db.transaction().execute(async (tx) => {
    if (media) await credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `t-media-${String(user.id)}` }, Math.round(media * 10));
    if (words) await credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `t-words-${String(user.id)}` }, words);
  });
  return user;
}

/** `POST /api/new/generations` as the start form sends it: text fields and files, multipart. */
export function startRun(app: FastifyInstance, user: TestUser | undefined, fields: Record<string, string | number>, files: Part[] = []) {
  const body = multipart([...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })), ...files]);
  return call(app, { method: 'POST', url: '/api/new/generations', token: user?.token, payload: body.payload, headers: body.headers });
}

export const runStatus = async (app: FastifyInstance, user: TestUser, id: number) => (await call(app, { url: `/api/new/generations/${String(id)}`, token: user.token })).data.json as Generation;

/** Waits until `check` answers something truthy (work moves on in a worker), asking every `everyMs`; fails after `ms`. */
export async function until<T>(check: () => Promise<T | false | undefined | null>, ms = 30_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('the condition was not reached');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The run once it is final (succeeded, failed or cancelled), as its owner reads it. */
export const finishedRun = (app: FastifyInstance, user: TestUser, id: number, ms = 30_000) =>
  until(async () => {
    const g = await runStatus(app, user, id);
    return g.status !== 'queued' && g.status !== 'running' && g;
  }, ms);

/** The pg-boss states of the run's jobs, oldest first. */
export const runJobStates = async (db: Db, id: number): Promise<string[]> =>
  (await sql<{ state: string }>`select state from pgboss.job where name = 'generations.run' and data->>'generationId' = ${String(id)} order by created_on`.execute(db)).rows.map((r) => r.state);

/** Waits until the run's job has ended (pg-boss: completed or failed for good), so nothing more comes of it. */
export const jobEnded = (db: Db, id: number) =>
  until(async () => {
    const states = await runJobStates(db, id);
    return states.length > 0 && states.every((state) => state === 'completed' || state === 'failed');
  });

/** A provider connection with one model and one product of `variant` on it; answers the product's id. */
export async function productOn(
  db: Db,
  connection: { protocol: ProviderProtocol; baseUrl: string; keyEnv: string },
  model: { kind: ModelKind; providerModel: string; mediaPriceTenths?: number; wordsPerToken?: number; maxOutputTokens?: number },
  product: { variant: ProductVariant; name: string; promptTemplate?: string; fields?: unknown[] },
): Promise<number> {
  const conn = await db
    .insertInto('provider_connections')
    .values({ name: `${product.name}: подключение`, protocol: connection.protocol, base_url: connection.baseUrl, api_key_env: connection.keyEnv, timeout_seconds: 10 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('ai_models')
    .values({
      name: `${product.name}: модель`,
      kind: model.kind,
      connection_id: conn.id,
      provider_model: model.providerModel,
      media_price_tenths: model.mediaPriceTenths ?? 0,
      words_per_token: model.wordsPerToken ?? 1,
      max_output_tokens: model.maxOutputTokens ?? 1024,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const category =
    (await db.selectFrom('ai_categories').select('id').executeTakeFirst()) ?? (await db.insertInto('ai_categories').values({ name: 'Тестовые' }).returning('id').executeTakeFirstOrThrow());
  const created = await db
    .insertInto('ai_products')
    .values({ category_id: category.id, variant: product.variant, name: product.name, model_id: row.id, prompt_template: product.promptTemplate ?? '', fields: JSON.stringify(product.fields ?? []) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/**
 * What a run left behind: its output files' bytes (read through the owner's file route), the
 * ledger rows of its hold and the hold's state, and the user's balances beside the ledger sums.
 */
export async function runEffects(app: FastifyInstance, db: Db, user: TestUser, id: number) {
  const run = await runStatus(app, user, id);
  const outputs = [];
  for (const file of run.outputs) {
    const res = await app.inject({ url: file.url, headers: { authorization: `Bearer ${user.token}` } });
    outputs.push({ mime: file.mime, body: res.rawPayload });
  }
  const row = await db.selectFrom('generations').select(['hold_id', 'error_detail', 'provider_ref', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
  const hold = row.hold_id === null ? undefined : await db.selectFrom('wallet_holds').select(['status', 'amount', 'spent']).where('id', '=', row.hold_id).executeTakeFirstOrThrow();
  const ledger = row.hold_id === null ? [] : await db.selectFrom('wallet_ledger').select(['amount', 'reason']).where('hold_id', '=', row.hold_id).orderBy('id').execute();
  const outputRows = await db.selectFrom('generation_files').select('file_id').where('generation_id', '=', id).where('role', '=', 'output').execute();
  return { run, outputs, outputRows: outputRows.length, hold, ledger, detail: row.error_detail, providerRef: row.provider_ref, attempts: row.attempts, wallet: await walletState(db, user.id) };
}
