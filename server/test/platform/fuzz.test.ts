import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, type RouteContract } from '@app/contracts';
import { ALL_CONTRACTS } from '../../src/app.ts';
import { seed } from '../../src/db/seed.ts';
import { createSession } from '../../src/features/accounts/sessions.queries.ts';
import { bodyFor, pathParam, queryString, type FuzzBody } from '../support/fuzz.ts';
import { TINY_PNG } from '../support/ai-fakes.ts';
import { call, createTestApp, csrfPair, multipart, newAdmin, newUser, parseEvents, startRun, subscribe, userWithTokens, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Every contract route, called by every kind of caller with random and hostile path parameters,
 * query strings and bodies: no reply is a 5xx, and every refusal is the error envelope. The seed
 * is fixed so a failure reproduces (FUZZ_SEED and FUZZ_RUNS change it for a longer hunt).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/** A reply slower than this is a hang (a stream that never ends), not an answer. */
const REPLY_TIMEOUT_MS = 15_000;

type ActorName = 'guest' | 'guest with CSRF' | 'owner' | 'owner by cookie' | 'stranger' | 'blocked' | 'unconfirmed' | 'admin';
const ACTORS: ActorName[] = ['guest', 'guest with CSRF', 'owner', 'owner by cookie', 'stranger', 'blocked', 'unconfirmed', 'admin'];

let t: TestApp;
const users: Partial<Record<'owner' | 'stranger' | 'blocked' | 'unconfirmed' | 'admin', TestUser>> = {};
/** Ids of real records (the owner's chat, run, file, payment and subscription; the catalogue's, plans, cards, users). */
let ids: number[] = [];
let csrf: { cookie: string; header: string };

beforeAll(async () => {
  console.log(`fuzz seed ${String(SEED)} (route n runs with seed ${String(SEED)} + n; FUZZ_SEED=${String(SEED)} reproduces a failure), ${String(RUNS)} runs a route`);
  t = await createTestApp({ workers: false, env: { DEMO_WORD_DELAY_MS: '0', DEMO_STEP_DELAY_MS: '0' } });
  await seed(t.db, pino({ level: 'silent' }));
  // Nothing the fuzz does may reach outside this machine: every connection points at a closed local port.
  await t.db.updateTable('provider_connections').set({ base_url: 'http://127.0.0.1:9/v1' }).where('base_url', 'is not', null).execute();
  const owner = await userWithTokens(t.db, 100, 100_000);
  users.owner = owner;
  users.stranger = await userWithTokens(t.db, 100, 100_000);
  users.blocked = await newUser(t.db, { blocked: true });
  users.unconfirmed = await newUser(t.db, { confirmed: false });
  users.admin = await newAdmin(t.db);
  csrf = await csrfPair(t.app);

  const chatModel = await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'chat').where('provider_model', '=', 'demo').executeTakeFirstOrThrow();
  const message = multipart([
    { name: 'ai_models_id', value: String(chatModel.id) },
    { name: 'message', value: 'Привет' },
    { name: 'image_example', file: { filename: 'a.png', type: 'image/png', data: TINY_PNG } },
  ]);
  const chat = await call(t.app, { method: 'POST', url: '/api/new/chat', token: owner.token, payload: message.payload, headers: message.headers });
  expect(chat.statusCode).toBe(200);
  const product = await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'img').executeTakeFirstOrThrow();
  const run = await startRun(t.app, owner, { product_id: product.id, prompt: 'Кот' });
  expect(run.statusCode).toBe(200);
  // Cancelled, so its event stream ends at once.
  const runId = (run.data.json as { id: number }).id;
  expect((await call(t.app, { method: 'POST', url: `/api/new/generations/${String(runId)}/cancel`, token: owner.token })).statusCode).toBe(200);
  await subscribe(t.app, owner, await t.db.selectFrom('tariffs').selectAll().where('subscriptions_type', '=', 2).executeTakeFirstOrThrow());

  const all = await Promise.all(
    (['users', 'chats', 'chat_messages', 'generations', 'files', 'invoices', 'subscriptions', 'tariffs', 'dashboard_cards', 'ai_products', 'ai_categories', 'ai_models', 'provider_connections'] as const).map((table) =>
      t.db.selectFrom(table).select('id').execute(),
    ),
  );
  ids = [...new Set(all.flat().map((r) => r.id))].sort((a, b) => a - b);
}, 120_000);
afterAll(() => t.close());

/** Headers and cookies of one caller; a fresh session for the logout route, so the fuzz never signs its callers out. */
async function identity(actor: ActorName, contract: RouteContract): Promise<{ headers: Record<string, string>; cookies: Record<string, string> }> {
  if (actor === 'guest') return { headers: {}, cookies: {} };
  if (actor === 'guest with CSRF') return { headers: { 'x-xsrf-token': csrf.header }, cookies: { 'XSRF-TOKEN': csrf.cookie } };
  const user = users[actor === 'owner by cookie' ? 'owner' : actor];
  if (!user) throw new Error(`no ${actor}`);
  const session = contract.path === '/api/new/logout' ? await createSession(t.db, user.id, 1, { ip: '127.0.0.1', userAgent: 'fuzz' }) : { bearer: user.token, cookie: user.cookie };
  if (actor === 'owner by cookie') return { headers: { 'x-xsrf-token': csrf.header }, cookies: { session: session.cookie, 'XSRF-TOKEN': csrf.cookie } };
  return { headers: { authorization: `Bearer ${session.bearer}` }, cookies: {} };
}

interface FuzzCase {
  actor: ActorName;
  method: string;
  params: Record<string, string>;
  query: string;
  body: FuzzBody;
}

function caseFor(contract: RouteContract): fc.Arbitrary<FuzzCase> {
  const names = [...contract.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] ?? '');
  const methods = contract.method === 'GET' ? fc.constantFrom('GET', 'GET', 'GET', 'HEAD') : contract.method === 'POST' ? fc.constant('POST') : fc.constantFrom(contract.method, contract.method, contract.method, 'POST');
  // Mostly the caller the route is for, so requests get past access checks to the code behind them.
  const primary: ActorName = contract.access === 'admin' ? 'admin' : contract.access === 'user' || contract.access === 'confirmed' ? 'owner' : 'guest with CSRF';
  return fc.record({
    actor: fc.oneof({ weight: 3, arbitrary: fc.constant(primary) }, { weight: 2, arbitrary: fc.constantFrom(...ACTORS) }),
    method: methods,
    params: fc.record(Object.fromEntries(names.map((name) => [name, name === 'kind' ? fc.oneof(fc.constantFrom('pay', 'check', 'refund'), pathParam(ids)) : pathParam(ids)]))),
    query: queryString(contract.query, ids),
    body: bodyFor(contract, ids),
  });
}

const urlOf = (contract: RouteContract, c: FuzzCase) => contract.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => c.params[name] ?? '1') + c.query;

/** A spoofed method goes as Laravel's forms send it: a POST with `_method` in the body. */
function spoofed(contract: RouteContract, c: FuzzCase): FuzzBody {
  if (c.method !== 'POST' || contract.method === 'POST' || c.body.kind !== 'raw' || !c.body.contentType.startsWith('application/json')) return c.body;
  const payload = typeof c.body.payload === 'string' ? c.body.payload : c.body.payload.toString('utf8');
  return payload.startsWith('{') && payload.length > 2 ? { ...c.body, payload: `{"_method":"${contract.method}",${payload.slice(1)}` } : c.body;
}

interface Reply {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * The reply's text: all of it, but of an open event stream only up to its first event (a run's
 * events stream stays open while the run is queued), after which the stream is closed as a
 * client that leaves would.
 */
async function readReply(res: Awaited<ReturnType<TestApp['app']['inject']>>, method: string): Promise<string> {
  const live = String(res.headers['content-type']).startsWith('text/event-stream') && res.statusCode === 200;
  const raw = res.raw.res;
  if (live && method === 'HEAD') {
    raw.destroy();
    return '';
  }
  let text = '';
  for await (const chunk of res.stream()) {
    text += String(chunk);
    if (live && /(^|\n)event: /.test(text) && text.includes('\n\n')) break;
  }
  raw.destroy();
  return text;
}

/** A provider test makes a real call: never unless every connection points at this machine. */
async function assertLoopbackProviders(): Promise<void> {
  const remote = await t.db.selectFrom('provider_connections').select('base_url').where('base_url', 'is not', null).where('base_url', 'not like', 'http://127.0.0.1:%').execute();
  if (remote.length) throw new Error(`a connection points outside this machine: ${remote.map((r) => String(r.base_url)).join(', ')}`);
}

async function send(contract: RouteContract, c: FuzzCase): Promise<Reply> {
  if (contract.path === '/api/admin/providers/:id/test') await assertLoopbackProviders();
  const who = await identity(c.actor, contract);
  const body = spoofed(contract, c);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no reply in ${String(REPLY_TIMEOUT_MS)} ms`)), REPLY_TIMEOUT_MS);
  });
  const reply = (async () => {
    const res = await t.app.inject({
      method: c.method as 'GET',
      url: urlOf(contract, c),
      headers: { ...who.headers, ...(body.kind === 'raw' ? { 'content-type': body.contentType } : {}) },
      cookies: who.cookies,
      ...(body.kind === 'raw' ? { payload: body.payload } : {}),
      remoteAddress: '127.0.0.1',
      payloadAsStream: true,
    });
    return { statusCode: res.statusCode, headers: res.headers, body: await readReply(res, c.method) };
  })();
  try {
    return await Promise.race([reply, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What is wrong with a reply, or nothing. */
function problemOf(contract: RouteContract, c: FuzzCase, res: Reply): string | undefined {
  if (res.statusCode >= 500) return `answered ${String(res.statusCode)}: ${res.body.slice(0, 300)}`;
  if (c.method === 'HEAD') return undefined;
  if (res.statusCode >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      return `answered ${String(res.statusCode)} without JSON: ${res.body.slice(0, 200)}`;
    }
    if (!ErrorEnvelopeSchema.safeParse(parsed).success) return `answered ${String(res.statusCode)} without the error envelope: ${res.body.slice(0, 200)}`;
    return undefined;
  }
  if (contract.stream && String(res.headers['content-type']).startsWith('text/event-stream')) {
    const failed = parseEvents(res.body).events.find((e) => e.event === 'error' && /INTERNAL|SERVICE_UNAVAILABLE/.test(JSON.stringify(e.data)));
    if (failed) return `stream failed: ${JSON.stringify(failed.data)}`;
  }
  return undefined;
}

describe('no input makes a 5xx', () => {
  ALL_CONTRACTS.forEach((contract, index) => {
    it(`${contract.method} ${contract.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(caseFor(contract), async (c) => {
          const res = await send(contract, c);
          const problem = problemOf(contract, c, res);
          if (problem) throw new Error(`${c.actor}: ${c.method} ${urlOf(contract, c)} → ${problem}`);
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
      );
    });
  });
});
