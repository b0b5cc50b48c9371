import crypto from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import type { DB } from '../../server/src/db/database.ts';
import { usersListQueries, type UserListOptions } from '../../server/src/features/admin/admin-users.queries.ts';

/**
 * The speed bench's baseline: bare Fastify and pg answering the same paths as the app with the
 * same SQL (compiled from the app's own query builders), and no more: no hooks, no validation,
 * no rate limit, no security headers, JSON.stringify for replies; like the app, it knows a token
 * it has seen from memory. The app's figures are read as
 * a ratio of these, measured in the same run.
 */
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const compiler = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

// The app's statements, with placeholders filled per request.
const viewerSql: CompiledQuery = compiler
  .selectFrom('sessions')
  .innerJoin('users', 'users.id', 'sessions.user_id')
  .select(['sessions.id as session_id', 'sessions.last_seen_at', 'users.id', 'users.email', 'users.role', 'users.email_confirmed_at', 'users.blocked_at'])
  .where('sessions.bearer_hash', '=', Buffer.alloc(32))
  .where('sessions.revoked_at', 'is', null)
  .where('sessions.expires_at', '>', sql<Date>`now()`)
  .compile();
const tariffsSql = compiler.selectFrom('tariffs').selectAll().where('active', '=', true).where('subscriptions_type', '!=', 3).orderBy('sort').orderBy('id').compile();
const currentSql = compiler.selectFrom('subscriptions').selectAll().where('user_id', '=', 0).where('status', 'in', ['active', 'past_due', 'cancelled']).compile();
const walletsSql = compiler.selectFrom('wallets').select(['kind', 'balance']).where('user_id', '=', 0).compile();
const lastCodeSql = compiler
  .selectFrom('email_codes')
  .select(sql<number>`extract(epoch from now() - created_at)::float8`.as('age'))
  .where('user_id', '=', 0)
  .orderBy('id', 'desc')
  .limit(1)
  .compile();

/** Runs a compiled statement with its own parameters, or with the request's in their place. */
const run = async <T extends object>(q: CompiledQuery, params: readonly unknown[] = q.parameters) => (await pool.query<T>(q.sql, [...params])).rows;

type ViewerRow = { id: number; email: string; role: string; email_confirmed_at: Date | null };
/** As the app, a token seen once is known from memory (the app's ViewerCache; here without its invalidation). */
const viewers = new Map<string, ViewerRow>();

async function viewer(authorization: string | undefined) {
  const token = /^Bearer\s+(\S+)$/.exec(authorization ?? '')?.[1];
  if (!token) return null;
  const hash = crypto.createHash('sha256').update(token).digest();
  const key = hash.toString('base64');
  const known = viewers.get(key);
  if (known) return known;
  const [row] = await run<ViewerRow>(viewerSql, [hash]);
  if (row) viewers.set(key, row);
  return row ?? null;
}

const app = Fastify({ logger: false });
const unauthenticated = { status: 'error', text: 'Войдите в аккаунт, чтобы продолжить', code: 'UNAUTHENTICATED' };

app.get('/api/new/tariff', async (req) => {
  await viewer(req.headers.authorization);
  const rows = await run<{ id: number; name: string; amount_kopecks: number; first_amount_kopecks: number | null; description: string[]; subscriptions_type: number; popular: boolean; currency_provider: string; words: number; media_tenths: number; trial_days: number }>(tariffsSql);
  return {
    status: 'success',
    json: rows.map((t) => ({
      id: t.id,
      name: t.name,
      amount: t.amount_kopecks / 100,
      first_amount: t.first_amount_kopecks === null ? null : t.first_amount_kopecks / 100,
      description: t.description,
      subscriptions_type: t.subscriptions_type,
      popular: t.popular,
      currency_provider: t.currency_provider,
      words: t.words,
      media: t.media_tenths / 10,
      trial_days: t.trial_days,
    })),
  };
});

/** The admin users list's two statements, compiled once per query string (the bench asks a few). */
const usersListSql = new Map<string, { count: CompiledQuery; page: CompiledQuery }>();
const forbidden = { status: 'error', text: 'Недостаточно прав', code: 'FORBIDDEN' };

app.get('/api/admin/users', async (req, reply) => {
  const v = await viewer(req.headers.authorization);
  if (!v) return reply.code(401).send(unauthenticated);
  if (v.role !== 'admin') return reply.code(403).send(forbidden);
  const q = req.query as Record<string, string | undefined>;
  const opts: UserListOptions = { q: q.q ?? '', sort: q.sort === 'email' || q.sort === 'created_at' ? q.sort : 'id', dir: q.dir === 'asc' ? 'asc' : 'desc', page: Number(q.page ?? 1) || 1 };
  const key = JSON.stringify(opts);
  let compiled = usersListSql.get(key);
  if (!compiled) {
    const queries = usersListQueries(compiler, opts);
    compiled = { count: queries.count.compile(), page: queries.page.compile() };
    usersListSql.set(key, compiled);
  }
  const [[count], rows] = await Promise.all([
    run<{ total: string }>(compiled.count),
    run<{ id: number; email: string; role: string; email_confirmed_at: Date | null; blocked_at: Date | null; created_at: Date; words: string | number; media_tenths: string | number }>(compiled.page),
  ]);
  return {
    status: 'success',
    json: {
      data: rows.map((r) => ({
        id: r.id,
        email: r.email,
        role: r.role,
        email_confirmed: r.email_confirmed_at !== null,
        blocked: r.blocked_at !== null,
        balances: { words: Number(r.words), media: Number(r.media_tenths) / 10 },
        created_at: r.created_at.toISOString(),
      })),
      last_page: Math.max(1, Math.ceil(Number(count?.total ?? 0) / 20)),
    },
  };
});

app.get('/api/new/subscribe/check_user', async (req, reply) => {
  const v = await viewer(req.headers.authorization);
  if (!v) return reply.code(401).send(unauthenticated);
  const [current] = await run<{ status: string; name: string; period_end: Date | null }>(currentSql, [v.id, 'active', 'past_due', 'cancelled']);
  if (!current) return { status: 'success', json: { status: false, subscription: null, days_left: 0, past_due: false } };
  const days = current.period_end ? Math.max(0, Math.ceil((current.period_end.getTime() - Date.now()) / 86_400_000)) : 0;
  return { status: 'success', json: { status: current.status !== 'cancelled', subscription: { name: current.name }, days_left: days, past_due: current.status === 'past_due' } };
});

app.get('/api/new/user', async (req, reply) => {
  const v = await viewer(req.headers.authorization);
  if (!v) return reply.code(401).send(unauthenticated);
  const confirmed = v.email_confirmed_at !== null;
  const [wallets, codes] = await Promise.all([run<{ kind: 'words' | 'media'; balance: number }>(walletsSql, [v.id]), confirmed ? [] : run<{ age: number }>(lastCodeSql, [v.id, 1])]);
  const balances = { words: 0, media: 0 };
  for (const w of wallets) balances[w.kind] = w.kind === 'media' ? w.balance / 10 : w.balance;
  const age = codes[0]?.age;
  return { status: 'success', json: { id: v.id, email: v.email, email_confirmed: confirmed, role: v.role, balances, resend_in: age === undefined ? 0 : Math.max(0, Math.ceil(60 - age)) } };
});

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no address');
process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${String(address.port)}` })}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
