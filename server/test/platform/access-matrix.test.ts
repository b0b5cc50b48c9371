import crypto from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, buildPath, type ErrorCode, type RouteContract } from '@app/contracts';
import { ALL_CONTRACTS } from '../../src/app.ts';
import { seed } from '../../src/db/seed.ts';
import { storeFiles } from '../../src/features/files/files.service.ts';
import { createSession, revokeSession } from '../../src/features/accounts/sessions.queries.ts';
import { insertPasswordReset } from '../../src/features/accounts/password-resets.queries.ts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { webhookToken } from '../../src/features/generations/replicate-webhook-url.ts';
import { FakeReplicate, TINY_PNG } from '../support/ai-fakes.ts';
import { call, createTestApp, multipart, newAdmin, newUser, notify, payFields, seedCatalog, startPayment, startRun, subscribe, type Catalog, type Part, type TestApp, type TestUser } from '../support/index.ts';

/*
 * The status every route of the API answers to each kind of caller, as one table a reviewer can
 * read: a guest, the confirmed user who owns the resource the request names, another user (a
 * user's chats, runs, files and payments are not found for anyone else, never «forbidden»), a
 * blocked user, a user who has not confirmed the email, and an admin. The requests are valid, so
 * only who asks decides; a refusal for who asks changes nothing in the database. Webhooks are
 * signed, not signed in: unsigned, everyone gets 401. A call that changes something with the
 * session cookie (or with none) and without the XSRF token gets 419. A new route without a row
 * in the table fails the test. (This table replaces the per-role loops of the former
 * access.test.ts and admin-billing-access.test.ts; hostile-bodies.test.ts and the fuzz test
 * over every route send what is not valid.)
 */

type Who = 'guest' | 'owner' | 'other' | 'blocked' | 'unconfirmed' | 'admin';
const WHO: readonly Who[] = ['guest', 'owner', 'other', 'blocked', 'unconfirmed', 'admin'];

/** A status, or a status with the error code the envelope must carry. */
type Cell = number | `${number} ${ErrorCode}`;

const ANON: Cell = '401 UNAUTHENTICATED';
const BLOCKED: Cell = '403 ACCOUNT_BLOCKED';
const NOT_ADMIN: Cell = '403 FORBIDDEN';
const UNCONFIRMED: Cell = '403 EMAIL_NOT_CONFIRMED';
const HIDDEN: Cell = '404 NOT_FOUND';
const UNSIGNED: Cell = '401 INVALID_SIGNATURE';
// What a caller is refused for the state of their account, not for who they are.
const ALREADY: Cell = '422 EMAIL_ALREADY_CONFIRMED';
const NO_PLAN: Cell = '422 SUBSCRIPTION_NOT_FOUND';
const PLAN_FIRST: Cell = '422 SUBSCRIPTION_REQUIRED';
const NO_BOT: Cell = '422 TELEGRAM_NOT_LINKED';
// The password change is sent with a wrong current password: it reaches the check, changes nothing.
const WRONG_PASSWORD: Cell = '422 WRONG_PASSWORD';

/** One route's policy: `METHOD path` as the contract has it, then the status for each caller in `WHO`'s order. */
type Row = readonly [route: string, guest: Cell, owner: Cell, other: Cell, blocked: Cell, unconfirmed: Cell, admin: Cell];

const POLICY: readonly Row[] = [
  // route                                         guest      owner       other        blocked    unconfirmed          admin
  // accounts
  ['GET /sanctum/csrf-cookie',                      204,       204,        204,         204,       204,                 204],
  ['POST /api/new/register',                        200,       200,        200,         200,       200,                 200],
  ['POST /api/new/login/check',                     200,       200,        200,         200,       200,                 200],
  ['POST /api/new/login',                           200,       200,        200,         200,       200,                 200],
  ['GET /api/new/logout',                           200,       200,        200,         200,       200,                 200],
  ['GET /api/new/user',                             ANON,      200,        200,         BLOCKED,   200,                 200],
  // (the unconfirmed user's code is wrong here: confirming with the right one is the accounts tests')
  ['POST /api/confirm_email',                       ANON,      ALREADY,    ALREADY,     BLOCKED,   '422 CODE_EXPIRED',  ALREADY],
  ['POST /api/new/confirm_email/resend',            ANON,      ALREADY,    ALREADY,     BLOCKED,   200,                 ALREADY],
  ['POST /api/new/reset_password',                  200,       200,        200,         200,       200,                 200],
  ['GET /api/new/reset_password/check',             200,       200,        200,         200,       200,                 200],
  ['PATCH /api/new/reset_password',                 200,       200,        200,         200,       200,                 200],
  ['POST /api/new/password/change',                 ANON,      WRONG_PASSWORD, WRONG_PASSWORD, BLOCKED, WRONG_PASSWORD,  WRONG_PASSWORD],
  // (only staff whose pending step is the enrolment enrol: the accounts tests')
  ['POST /api/new/second-factor/setup',             ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           '409 SECOND_FACTOR_ALREADY'],
  ['POST /api/new/second-factor/enable',            ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           '409 SECOND_FACTOR_ALREADY'],
  // billing
  ['GET /api/new/tariff',                           200,       200,        200,         200,       200,                 200],
  ['GET /api/new/subscribe/check',                  ANON,      200,        200,         BLOCKED,   200,                 200],
  ['DELETE /api/new/subscribe/',                    ANON,      200,        NO_PLAN,     BLOCKED,   NO_PLAN,             NO_PLAN],
  ['GET /api/payment/cloudpayments/key',            ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/payment/cloudpayments/pay',            ANON,      200,        PLAN_FIRST,  BLOCKED,   UNCONFIRMED,         PLAN_FIRST],
  ['GET /api/payment/cloudpayments/subscribe',      ANON,      200,        200,         BLOCKED,   UNCONFIRMED,         200],
  ['GET /api/payment/cloudpayments/status',         ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/payment/cloudpayments/notify/:kind',  UNSIGNED,  UNSIGNED,   UNSIGNED,    UNSIGNED,  UNSIGNED,            UNSIGNED],
  ['GET /api/new/subscribe/check_user',             ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/subscribe',                        ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/subscribe/packages',               ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/subscribe/payments',               ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/target_2',                         ANON,      200,        200,         BLOCKED,   200,                 200],
  ['POST /api/sandbox/cloudpayments/charge',        ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/admin/sandbox/renew',                 ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  // the balance history: each caller's own lines, so another user sees theirs, not the owner's
  ['GET /api/new/balance/history',                  ANON,      200,        200,         BLOCKED,   200,                 200],
  // dashboard and the welcome gift
  ['GET /api/new/dashboard',                        ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/welcome',                          ANON,      200,        200,         BLOCKED,   200,                 200],
  ['POST /api/new/welcome/check',                   ANON,      NO_BOT,     NO_BOT,      BLOCKED,   UNCONFIRMED,         NO_BOT],
  ['GET /api/new/nt_close',                         ANON,      200,        200,         BLOCKED,   200,                 200],
  ['POST /api/telegram/webhook',                    UNSIGNED,  UNSIGNED,   UNSIGNED,    UNSIGNED,  UNSIGNED,            UNSIGNED],
  // chat
  ['GET /api/new/chat',                             ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/chat/:id',                         ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/new/chat',                            ANON,      200,        HIDDEN,      BLOCKED,   UNCONFIRMED,         HIDDEN],
  ['POST /api/new/chat/stream',                     ANON,      200,        HIDDEN,      BLOCKED,   UNCONFIRMED,         HIDDEN],
  ['POST /api/new/chat/:id/stop',                   ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['PATCH /api/new/chat/:id',                       ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['DELETE /api/new/chat/:id',                      ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['GET /api/new/chat_models',                      ANON,      200,        200,         BLOCKED,   200,                 200],
  ['POST /api/new/chat/:id/regenerate',             ANON,      200,        HIDDEN,      BLOCKED,   UNCONFIRMED,         HIDDEN],
  ['POST /api/new/chat/:id/edit',                   ANON,      200,        HIDDEN,      BLOCKED,   UNCONFIRMED,         HIDDEN],
  ['POST /api/new/chat/:id/variant',                ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['GET /api/new/chat/search',                      ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/chat/:id/export',                  ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/new/chat/estimate',                   ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/new/chat/:id/summary',                ANON,      200,        HIDDEN,      BLOCKED,   UNCONFIRMED,         HIDDEN],
  // the generation catalogue and runs
  ['GET /api/new/ai-products',                      ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/ai-products/:id',                  ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/ai-products/:id/example',          ANON,      200,        200,         BLOCKED,   200,                 200],
  ['POST /api/new/generations',                     ANON,      200,        200,         BLOCKED,   UNCONFIRMED,         200],
  ['GET /api/new/generations',                      ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/new/generations/:id',                  ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['GET /api/new/generations/:id/events',           ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/new/generations/:id/cancel',          ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              HIDDEN],
  ['POST /api/replicate/webhook',                   UNSIGNED,  UNSIGNED,   UNSIGNED,    UNSIGNED,  UNSIGNED,            UNSIGNED],
  ['GET /api/new/files/:id',                        ANON,      200,        HIDDEN,      BLOCKED,   HIDDEN,              200],
  // the admin panel
  ['GET /api/admin/jobs/failures',                  ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/users',                          ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/users/:id',                      ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PATCH /api/admin/users/:id',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/users/:id/balance',             ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/audit',                          ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/ai-products',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/ai-products/:id',                ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/ai-products',                   ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PATCH /api/admin/ai-products/:id',              ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['DELETE /api/admin/ai-products/:id',             ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/ai-products/:id/example',       ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['DELETE /api/admin/ai-products/:id/example',     ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/ai-categories',                  ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/ai-categories/:id',              ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/ai-categories',                 ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PATCH /api/admin/ai-categories/:id',            ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['DELETE /api/admin/ai-categories/:id',           ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/ai-models',                      ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/ai-models/:id',                  ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/ai-models',                     ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PATCH /api/admin/ai-models/:id',                ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['DELETE /api/admin/ai-models/:id',               ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/providers',                      ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/providers/:id',                  ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/providers',                     ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PATCH /api/admin/providers/:id',                ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['DELETE /api/admin/providers/:id',               ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/providers/:id/test',            ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/tariffs',                        ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/tariffs/:id',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/tariffs',                       ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PUT /api/admin/tariffs/:id',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/subscriptions',                  ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/subscriptions/:id',              ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/payments',                       ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/payments/:id',                   ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/payments/:id/refund',           ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/subscription-log',               ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/dashboard-cards',                ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/dashboard-cards/:id',            ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/dashboard-cards',               ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PUT /api/admin/dashboard-cards/:id',            ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['DELETE /api/admin/dashboard-cards/:id',         ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/generations',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/chats',                          ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/chats/:id',                      ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/analytics',                      ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/settings',                       ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PUT /api/admin/settings',                       ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/exports/ledger',                 ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/exports/payments',               ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  // notices and personal data (the deletion is sent with a wrong password: it reaches the check, deletes nothing)
  ['GET /api/new/settings/notices',                 ANON,      200,        200,         BLOCKED,   200,                 200],
  ['PUT /api/new/settings/notices',                 ANON,      200,        200,         BLOCKED,   200,                 200],
  ['POST /api/new/account/delete',                  ANON,      WRONG_PASSWORD, WRONG_PASSWORD, BLOCKED, WRONG_PASSWORD,  WRONG_PASSWORD],
  ['GET /api/new/legal/:kind',                      200,       200,        200,         200,       200,                 200],
  ['GET /api/admin/legal/:kind',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/legal/:kind',                   ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/users/:id/export',               ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  // promo codes and referrals
  ['POST /api/new/promo/redeem',                    ANON,      200,        200,         BLOCKED,   UNCONFIRMED,         200],
  ['GET /api/new/promo/discount',                   ANON,      200,        200,         BLOCKED,   UNCONFIRMED,         200],
  ['GET /api/new/referral',                         ANON,      200,        200,         BLOCKED,   200,                 200],
  ['GET /api/admin/promo-codes',                    ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['GET /api/admin/promo-codes/:id',                ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['POST /api/admin/promo-codes',                   ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
  ['PUT /api/admin/promo-codes/:id',                ANON,      NOT_ADMIN,  NOT_ADMIN,   BLOCKED,   NOT_ADMIN,           200],
];

/** A valid request of a route: what goes in its path, query and body. */
interface Req {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  /** A JSON (or, with `form`, form-encoded) body. */
  body?: Record<string, unknown>;
  form?: boolean;
  /** A multipart body. */
  parts?: Part[];
  /** The call ends the caller's session (sign-out): it gets a session of its own. */
  ownSession?: boolean;
}

const TELEGRAM_SECRET = 'matrix-telegram-secret';
const REPLICATE_SECRET = `whsec_${Buffer.from('matrix-replicate-secret').toString('base64')}`;

let t: TestApp;
let users: Record<Exclude<Who, 'guest'>, TestUser>;
let catalog: Catalog;
/** The owner's resources and the admin panel's records the requests name. */
let fx: {
  chat: number;
  run: number;
  file: number;
  product: number;
  chatModel: number;
  payment: number;
  subscription: number;
  category: number;
  model: number;
  connection: number;
  card: number;
};

let ipCounter = 0;
/** Each call from its own address, so the sign-in forms' per-address allowances never decide. */
const nextIp = () => `10.${String((++ipCounter >> 16) & 255)}.${String((ipCounter >> 8) & 255)}.${String(ipCounter & 255)}`;
const uuid = () => crypto.randomUUID();

const insertId = async (table: 'chats' | 'ai_categories' | 'provider_connections' | 'dashboard_cards', values: Record<string, unknown>) =>
  (await t.db.insertInto(table).values(values as never).returning('id').executeTakeFirstOrThrow()).id;

/** The owner's plan running again after a call cancelled it (cancelling and buying a package need it running). */
const ownerPlanRunning = () => t.db.updateTable('subscriptions').set({ status: 'active', cancelled_at: null }).where('id', '=', fx.subscription).execute();

/** Fresh records for calls that use them up (deleted, cancelled, paid), one per call. */
const fresh = {
  chat: () => insertId('chats', { user_id: users.owner.id, title: 'Чат для проверки' }),
  /** A chat of the owner's whose last message is an answer to its one question. */
  answered: async () => {
    const chat = await fresh.chat();
    const question = (await t.db.insertInto('chat_messages').values({ chat_id: chat, user_id: users.owner.id, role: 'user', text: 'Вопрос' }).returning('id').executeTakeFirstOrThrow()).id;
    const answer = (
      await t.db.insertInto('chat_messages').values({ chat_id: chat, user_id: users.owner.id, role: 'assistant', text: 'Ответ', parent_id: question, model_name: 'Демо' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    return { chat, question, answer };
  },
  category: () => insertId('ai_categories', { name: `Пустая ${uuid().slice(0, 8)}` }),
  connection: () => insertId('provider_connections', { name: `Подключение ${uuid().slice(0, 8)}`, protocol: 'demo' }),
  card: () => insertId('dashboard_cards', { link: '/chat', icon: '/i.svg', name: 'Карточка', description: 'Описание' }),
  model: async () =>
    (await t.db.insertInto('ai_models').values({ name: `Модель ${uuid().slice(0, 8)}`, kind: 'image', connection_id: fx.connection, provider_model: 'demo-image' }).returning('id').executeTakeFirstOrThrow()).id,
  product: async (withExample = false) => {
    const id = (
      await t.db
        .insertInto('ai_products')
        .values({ category_id: fx.category, variant: 'img', name: `Продукт ${uuid().slice(0, 8)}`, model_id: fx.model, prompt_template: '', fields: '[]' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    if (withExample) {
      await storeFiles(t.db, t.ctx.storage, async (tx, save) => {
        const file = await save({ ownerId: null, purpose: 'product_example', body: TINY_PNG, contentType: 'image/png', originalName: 'example.png' });
        await tx.updateTable('ai_products').set({ example_file_id: file.id }).where('id', '=', id).execute();
      });
    }
    return id;
  },
  /** A queued run of the owner's (the workers are off, so it stays queued). */
  run: async () => {
    const res = await startRun(t.app, users.owner, { product_id: fx.product, prompt: 'Кот в сапогах' });
    if (res.statusCode !== 200) throw new Error(res.body);
    return (res.data.json as { id: number }).id;
  },
  /** A pending payment of the owner's for a package (which needs the owner's plan running). */
  payment: async () => {
    await ownerPlanRunning();
    return (await startPayment(t.app, users.owner, catalog.wordsPack)).payment_id;
  },
  /** A promo code anyone may take once (each call its own). */
  promo: async (kind: 'tokens' | 'discount') => {
    const code = promoCode();
    await t.db.insertInto('promo_codes').values(kind === 'tokens' ? { code, kind, words: 10 } : { code, kind, discount_percent: 10 }).execute();
    return code;
  },
  promoId: async () => (await t.db.insertInto('promo_codes').values({ code: promoCode(), kind: 'tokens', words: 10 }).returning('id').executeTakeFirstOrThrow()).id,
  /** A user to sign in, reset or change: nobody else's session depends on them. */
  user: () => newUser(t.db),
};

/** A valid request of each route, by `METHOD path`; records a call uses up are made for it. */
const REQUESTS: Record<string, () => Req | Promise<Req>> = {
  'GET /sanctum/csrf-cookie': () => ({}),
  'POST /api/new/register': () => ({ body: { email: `new-${uuid()}@example.ru`, password: 'correct-horse-battery', password_confirmation: 'correct-horse-battery', consent: true } }),
  'POST /api/new/login': async () => {
    const u = await fresh.user();
    return { body: { email: u.email, password: u.password } };
  },
  'POST /api/new/login/check': () => ({ body: { email: `anyone-${uuid()}@example.ru` } }),
  'GET /api/new/logout': () => ({ ownSession: true }),
  'GET /api/new/user': () => ({}),
  'POST /api/confirm_email': () => ({ body: { code: '123456' } }),
  'POST /api/new/confirm_email/resend': () => ({}),
  'POST /api/new/reset_password': async () => ({ body: { email: (await fresh.user()).email } }),
  'GET /api/new/reset_password/check': () => ({ query: { token: 'no-such-token', email: users.owner.email } }),
  'POST /api/new/password/change': () => ({ body: { current_password: 'not-the-password', password: 'another-horse-battery', password_confirmation: 'another-horse-battery' } }),
  'POST /api/new/second-factor/setup': () => ({}),
  'POST /api/new/second-factor/enable': () => ({ body: { code: '123456' } }),
  'PATCH /api/new/reset_password': async () => {
    const u = await fresh.user();
    const token = `reset-${uuid()}`;
    await insertPasswordReset(t.db, u.id, token, new Date(Date.now() + 3_600_000));
    return { body: { token, email: u.email, password: 'another-horse-battery', password_confirmation: 'another-horse-battery' } };
  },

  'GET /api/new/tariff': () => ({ query: { frontend: '1' } }),
  'GET /api/new/subscribe/check': () => ({}),
  'DELETE /api/new/subscribe/': async () => {
    await ownerPlanRunning();
    return {};
  },
  'GET /api/payment/cloudpayments/key': () => ({}),
  'GET /api/payment/cloudpayments/pay': async () => {
    await ownerPlanRunning();
    return { query: { id: String(catalog.wordsPack.id) } };
  },
  'GET /api/payment/cloudpayments/subscribe': () => ({ query: { id: String(catalog.pro.id) } }),
  'GET /api/payment/cloudpayments/status': () => ({ query: { id: String(fx.payment) } }),
  'POST /api/payment/cloudpayments/notify/:kind': () => ({ params: { kind: 'pay' }, form: true, body: payFields({ payment_id: fx.payment, amount: 100 }, users.owner) }),
  'GET /api/new/subscribe/check_user': () => ({}),
  'GET /api/new/subscribe': () => ({ query: { page: '1' } }),
  'GET /api/new/subscribe/packages': () => ({ query: { page: '1' } }),
  'GET /api/new/balance/history': () => ({ query: { page: '1' } }),
  'GET /api/new/subscribe/payments': () => ({ query: { page: '1' } }),
  'GET /api/new/target_2': () => ({}),
  'POST /api/sandbox/cloudpayments/charge': async () => ({ body: { payment_id: await fresh.payment(), card_number: '4242 4242 4242 4242', exp: '12/30', cvv: '123' } }),
  'POST /api/admin/sandbox/renew': () => ({ body: {} }),

  'GET /api/new/dashboard': () => ({}),
  'GET /api/new/welcome': () => ({}),
  'POST /api/new/welcome/check': () => ({}),
  'GET /api/new/nt_close': () => ({}),
  'POST /api/telegram/webhook': () => ({ body: { update_id: 1 } }),

  'GET /api/new/chat': () => ({ query: { page: '1' } }),
  'GET /api/new/chat/:id': () => ({ params: { id: fx.chat } }),
  'POST /api/new/chat': () => ({ parts: chatMessage() }),
  'POST /api/new/chat/stream': () => ({ parts: chatMessage() }),
  'POST /api/new/chat/:id/stop': () => ({ params: { id: fx.chat } }),
  'PATCH /api/new/chat/:id': () => ({ params: { id: fx.chat }, body: { title: 'Новое название' } }),
  'DELETE /api/new/chat/:id': async () => ({ params: { id: await fresh.chat() } }),
  'GET /api/new/chat_models': () => ({}),
  'POST /api/new/chat/:id/regenerate': async () => ({ params: { id: (await fresh.answered()).chat }, body: { ai_models_id: fx.chatModel } }),
  'POST /api/new/chat/:id/edit': async () => {
    const { chat, question } = await fresh.answered();
    return { params: { id: chat }, body: { ai_models_id: fx.chatModel, message_id: question, message: 'Вопрос иначе' } };
  },
  'POST /api/new/chat/:id/variant': async () => {
    const { chat, answer } = await fresh.answered();
    return { params: { id: chat }, body: { message_id: answer } };
  },
  'GET /api/new/chat/search': () => ({ query: { q: 'проверка' } }),
  'GET /api/new/chat/:id/export': () => ({ params: { id: fx.chat } }),
  'POST /api/new/chat/estimate': () => ({ body: { ai_models_id: fx.chatModel, chat_id: fx.chat, message: 'Привет' } }),
  'POST /api/new/chat/:id/summary': async () => ({ params: { id: (await fresh.answered()).chat }, body: { request_id: crypto.randomUUID(), ai_models_id: fx.chatModel } }),

  'GET /api/new/ai-products': () => ({ query: { type: 'image' } }),
  'GET /api/new/ai-products/:id': () => ({ params: { id: fx.product } }),
  'GET /api/new/ai-products/:id/example': () => ({ params: { id: fx.product } }),
  'POST /api/new/generations': () => ({ parts: [field('product_id', fx.product), field('prompt', 'Кот в сапогах')] }),
  'GET /api/new/generations': () => ({ query: { type: 'image', page: '1' } }),
  'GET /api/new/generations/:id': () => ({ params: { id: fx.run } }),
  'GET /api/new/generations/:id/events': () => ({ params: { id: fx.run } }),
  'POST /api/new/generations/:id/cancel': async () => ({ params: { id: await fresh.run() } }),
  'POST /api/replicate/webhook': () => ({ body: { id: 'prediction', status: 'succeeded' } }),
  'GET /api/new/files/:id': () => ({ params: { id: fx.file } }),

  'GET /api/admin/jobs/failures': () => ({}),
  'GET /api/admin/users': () => ({ query: { q: 'example', sort: 'email', dir: 'asc' } }),
  'GET /api/admin/users/:id': () => ({ params: { id: users.owner.id } }),
  'PATCH /api/admin/users/:id': async () => ({ params: { id: (await fresh.user()).id }, body: { blocked: true } }),
  'POST /api/admin/users/:id/balance': () => ({ params: { id: users.owner.id }, body: { wallet: 'words', amount: 10, reason: 'Проверка доступа', request_id: uuid() } }),
  'GET /api/admin/audit': () => ({}),
  'GET /api/admin/ai-products': () => ({}),
  'GET /api/admin/ai-products/:id': () => ({ params: { id: fx.product } }),
  'POST /api/admin/ai-products': () => ({ body: { category_id: fx.category, variant: 'img', name: `Продукт ${uuid().slice(0, 8)}`, model_id: fx.model } }),
  'PATCH /api/admin/ai-products/:id': () => ({ params: { id: fx.product }, body: { description: 'Описание' } }),
  'DELETE /api/admin/ai-products/:id': async () => ({ params: { id: await fresh.product() } }),
  'POST /api/admin/ai-products/:id/example': async () => ({ params: { id: await fresh.product() }, parts: [{ name: 'image', file: { filename: 'example.png', type: 'image/png', data: TINY_PNG } }] }),
  'DELETE /api/admin/ai-products/:id/example': async () => ({ params: { id: await fresh.product(true) } }),
  'GET /api/admin/ai-categories': () => ({}),
  'GET /api/admin/ai-categories/:id': () => ({ params: { id: fx.category } }),
  'POST /api/admin/ai-categories': () => ({ body: { name: `Категория ${uuid().slice(0, 8)}` } }),
  'PATCH /api/admin/ai-categories/:id': () => ({ params: { id: fx.category }, body: { description: 'Описание' } }),
  'DELETE /api/admin/ai-categories/:id': async () => ({ params: { id: await fresh.category() } }),
  'GET /api/admin/ai-models': () => ({}),
  'GET /api/admin/ai-models/:id': () => ({ params: { id: fx.model } }),
  'POST /api/admin/ai-models': () => ({ body: { name: `Модель ${uuid().slice(0, 8)}`, kind: 'image', connection_id: fx.connection, provider_model: 'demo-image' } }),
  'PATCH /api/admin/ai-models/:id': () => ({ params: { id: fx.model }, body: { description: 'Описание' } }),
  'DELETE /api/admin/ai-models/:id': async () => ({ params: { id: await fresh.model() } }),
  'GET /api/admin/providers': () => ({}),
  'GET /api/admin/providers/:id': () => ({ params: { id: fx.connection } }),
  'POST /api/admin/providers': () => ({ body: { name: `Подключение ${uuid().slice(0, 8)}`, protocol: 'demo' } }),
  'PATCH /api/admin/providers/:id': () => ({ params: { id: fx.connection }, body: { timeout_seconds: 30 } }),
  'DELETE /api/admin/providers/:id': async () => ({ params: { id: await fresh.connection() } }),
  'POST /api/admin/providers/:id/test': () => ({ params: { id: fx.connection }, body: {} }),
  'GET /api/admin/tariffs': () => ({}),
  'GET /api/admin/tariffs/:id': () => ({ params: { id: catalog.monthly.id } }),
  'POST /api/admin/tariffs': () => ({ body: PLAN }),
  'PUT /api/admin/tariffs/:id': () => ({ params: { id: catalog.monthly.id }, body: PLAN }),
  'GET /api/admin/subscriptions': () => ({ query: { status: 'active' } }),
  'GET /api/admin/subscriptions/:id': () => ({ params: { id: fx.subscription } }),
  'GET /api/admin/payments': () => ({}),
  'GET /api/admin/payments/:id': () => ({ params: { id: fx.payment } }),
  'POST /api/admin/payments/:id/refund': () => ({ params: { id: fx.payment }, body: { amount: 1, reason: 'Проверка доступа', request_id: uuid() } }),
  'GET /api/admin/subscription-log': () => ({}),
  'GET /api/admin/dashboard-cards': () => ({}),
  'GET /api/admin/dashboard-cards/:id': () => ({ params: { id: fx.card } }),
  'POST /api/admin/dashboard-cards': () => ({ body: CARD }),
  'PUT /api/admin/dashboard-cards/:id': () => ({ params: { id: fx.card }, body: CARD }),
  'DELETE /api/admin/dashboard-cards/:id': async () => ({ params: { id: await fresh.card() } }),
  'GET /api/admin/generations': () => ({}),
  'GET /api/admin/chats': () => ({}),
  'GET /api/admin/chats/:id': () => ({ params: { id: fx.chat } }),
  'GET /api/admin/analytics': () => ({ query: { from: '2025-01-01', to: '2025-01-31' } }),
  'GET /api/admin/settings': () => ({}),
  'GET /api/new/settings/notices': () => ({}),
  'PUT /api/new/settings/notices': () => ({ body: { renewal_failed: true, plan_ended: true } }),
  'POST /api/new/account/delete': () => ({ body: { password: 'not-the-password', confirm: true } }),
  'GET /api/new/legal/:kind': () => ({ params: { kind: 'privacy' } }),
  'GET /api/admin/legal/:kind': () => ({ params: { kind: 'offer' } }),
  'POST /api/admin/legal/:kind': () => ({ params: { kind: 'offer' }, body: { body: 'Новая редакция оферты' } }),
  'GET /api/admin/users/:id/export': () => ({ params: { id: users.owner.id } }),
  'PUT /api/admin/settings': () => ({
    body: { welcome_words: 1000, welcome_media: 1, referral_words: 5000, telegram_channel: '@neurostudio_news', support_url: 'mailto:support@neurostudio.local', sandbox_payments: true, sandbox_telegram: true },
  }),
  'GET /api/admin/exports/ledger': () => ({ query: { from: '2025-01-01', to: '2025-01-31' } }),
  'GET /api/admin/exports/payments': () => ({ query: { from: '2025-01-01', to: '2025-01-31' } }),
  'POST /api/new/promo/redeem': async () => ({ body: { code: await fresh.promo('tokens') } }),
  'GET /api/new/promo/discount': async () => ({ query: { code: await fresh.promo('discount'), tariff_id: String(catalog.pro.id) } }),
  'GET /api/new/referral': () => ({}),
  'GET /api/admin/promo-codes': () => ({}),
  'GET /api/admin/promo-codes/:id': async () => ({ params: { id: await fresh.promoId() } }),
  'POST /api/admin/promo-codes': () => ({ body: { code: promoCode(), kind: 'tokens', words: 100 } }),
  'PUT /api/admin/promo-codes/:id': async () => ({ params: { id: await fresh.promoId() }, body: { max_uses: 5, active: true } }),
};

const promoCode = () => `M${uuid().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

const PLAN = { name: 'Тариф', amount: 100, words: 10, media: 1, subscriptions_type: 2 };
const CARD = { name: 'Новость', description: 'Описание', icon: '/i.svg', link: '/chat' };
const field = (name: string, value: string | number): Part => ({ name, value: String(value) });
/** A message to the owner's chat. */
const chatMessage = (): Part[] => [field('ai_models_id', fx.chatModel), field('message', 'Привет'), field('chat_id', fx.chat)];

/** Refusals for who the caller is (or for an unsigned webhook): such a call changes nothing, and says so with the registry's message. */
const ACCESS_REFUSALS = new Set<string>(['UNAUTHENTICATED', 'ACCOUNT_BLOCKED', 'FORBIDDEN', 'EMAIL_NOT_CONFIRMED', 'INVALID_SIGNATURE', 'CSRF_MISMATCH']);

const NO_SUCH_ID = 2_000_000_000;

const label = (c: RouteContract) => `${c.method} ${c.path}`;
const policyOf = new Map(POLICY.map((row) => [row[0], row]));

/** Sends `req` to `route` as `who`: a bearer token, the session cookie, or nothing. */
async function send(route: RouteContract, req: Req, who: Who, opts: { via?: 'bearer' | 'cookie'; xsrf?: boolean } = {}) {
  const via = opts.via ?? 'bearer';
  const user = who === 'guest' ? undefined : users[who];
  let token = user?.token;
  let cookie = user?.cookie;
  if (user && req.ownSession) {
    const session = await createSession(t.db, user.id, 1, { ip: '127.0.0.1', userAgent: 'matrix' });
    token = session.bearer;
    cookie = session.cookie;
  }
  const changes = route.method !== 'GET';
  const body = req.parts ? multipart(req.parts) : req.form ? { payload: new URLSearchParams(req.body as Record<string, string>).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : undefined;
  const url = `${buildPath(route.path, req.params)}${req.query ? `?${new URLSearchParams(req.query).toString()}` : ''}`;
  const res = await call(t.app, {
    method: route.method,
    url,
    payload: body ? body.payload : req.body,
    headers: { ...body?.headers },
    ...(via === 'bearer' ? { token } : { cookies: cookie ? { session: cookie } : {} }),
    // Anonymous and cookie-authenticated calls that change something carry the XSRF pair unless told not to.
    csrf: changes && (via === 'cookie' || !token) && opts.xsrf !== false,
    remoteAddress: nextIp(),
  });
  return { status: res.statusCode, code: res.data.code, text: res.data.text, body: res.body };
}

/** Everything the database holds, to show that refused calls change nothing. */
async function databaseState(): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(t.db);
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ digest: string }>`select count(*) || ':' || coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as digest from ${sql.table(name)} r`.execute(t.db);
    state[name] = rows[0]?.digest ?? '';
  }
  return state;
}

beforeAll(async () => {
  t = await createTestApp({
    workers: false,
    env: { DEMO_WORD_DELAY_MS: '0', DEMO_STEP_DELAY_MS: '0', TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET, REPLICATE_WEBHOOK_SECRET: REPLICATE_SECRET, PUBLIC_URL: 'http://127.0.0.1:3000' },
  });
  // The seed's plans first (the catalog's rows), then the rest of the seed: cards, the AI catalogue, example images.
  catalog = await seedCatalog(t.db);
  await seed(t.db, pino({ level: 'silent' }), t.ctx.storage);
  users = {
    owner: await newUser(t.db),
    other: await newUser(t.db),
    blocked: await newUser(t.db, { blocked: true }),
    unconfirmed: await newUser(t.db, { confirmed: false }),
    admin: await newAdmin(t.db),
  };
  for (const u of Object.values(users)) {
    await t.db.transaction().execute(async (tx) => {
      await credit(tx, { userId: u.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `matrix-words-${String(u.id)}` }, 100_000);
      await credit(tx, { userId: u.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `matrix-media-${String(u.id)}` }, 1_000);
    });
  }
  const chatModel = await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'chat').where('provider_model', '=', 'demo').executeTakeFirstOrThrow();
  const product = await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'img').where('active', '=', true).where('example_file_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow();
  const { invoice } = await subscribe(t.app, users.owner, catalog.monthly);
  const subscription = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', users.owner.id).executeTakeFirstOrThrow();
  const file = await storeFiles(t.db, t.ctx.storage, (_tx, save) => save({ ownerId: users.owner.id, purpose: 'chat_attachment', body: TINY_PNG, contentType: 'image/png', originalName: 'cat.png' }));
  fx = { chat: 0, run: 0, file: file.id, product: product.id, chatModel: chatModel.id, payment: invoice.payment_id, subscription: subscription.id, category: 0, model: 0, connection: 0, card: 0 };
  fx.chat = await fresh.chat();
  fx.category = await fresh.category();
  fx.connection = await fresh.connection();
  fx.model = await fresh.model();
  fx.card = await fresh.card();
  // A run that has ended, so its event stream ends too.
  fx.run = await fresh.run();
  const cancelled = await call(t.app, { method: 'POST', url: `/api/new/generations/${String(fx.run)}/cancel`, token: users.owner.token });
  if (cancelled.statusCode !== 200) throw new Error(cancelled.body);
});
afterAll(() => t.close());

/** A reply as the table writes it: the status, and the code of an error. */
const cellOf = (res: { status: number; code?: string }) => (res.status < 400 ? String(res.status) : `${String(res.status)} ${String(res.code)}`);
const cellIn = (row: Row, who: Who) => String(row[WHO.indexOf(who) + 1]);
/** Who makes a route's own call: an admin for the admin's routes, nobody for the forms and public routes, else the owner. */
const callerOf = (route: RouteContract): Who => (route.access === 'admin' ? 'admin' : route.access === 'guest' || route.access === 'public' ? 'guest' : 'owner');
const rowOf = (route: RouteContract): Row => {
  const row = policyOf.get(label(route));
  if (!row) throw new Error(`${label(route)} has no row in POLICY`);
  return row;
};
const requestOf = (route: RouteContract): Promise<Req> => {
  const build = REQUESTS[label(route)];
  if (!build) throw new Error(`${label(route)} has no request in REQUESTS`);
  return Promise.resolve(build());
};

describe('who may call what', () => {
  it('the table has exactly one row, and one request, for every route of the API', () => {
    const routes = ALL_CONTRACTS.map(label).sort();
    expect(POLICY.map((row) => row[0]).sort()).toEqual(routes);
    expect(Object.keys(REQUESTS).sort()).toEqual(routes);
  });

  it('every caller gets the status of the table; a refusal for who the caller is changes nothing and says why in Russian', async () => {
    const observed: string[] = [];
    const changed: string[] = [];
    const texts: string[] = [];
    for (const route of ALL_CONTRACTS) {
      const name = label(route);
      const row = rowOf(route);
      const requests = new Map<Who, Req>();
      for (const who of WHO) requests.set(who, await requestOf(route));
      const cells = new Map<Who, string>();
      const ask = async (who: Who) => {
        const req = requests.get(who) ?? {};
        const res = await send(route, req, who);
        cells.set(who, cellOf(res));
        // Someone else's record is refused exactly as one that does not exist: ids reveal nothing.
        if (cellIn(row, who) === HIDDEN && (req.params?.id ?? req.query?.id) !== undefined) {
          const missing = await send(route, { ...req, ...(req.params ? { params: { ...req.params, id: NO_SUCH_ID } } : { query: { ...req.query, id: String(NO_SUCH_ID) } }) }, who);
          if (missing.body !== res.body) texts.push(`${name} as ${who}: ${res.body}, but for no such record ${missing.body}`);
        }
        if (res.status >= 400) {
          const registry = res.code && ACCESS_REFUSALS.has(res.code) ? ERROR_CODES[res.code as ErrorCode].message : undefined;
          if (registry ? res.text !== registry : !/[а-яё]/i.test(JSON.stringify(res.text))) texts.push(`${name} as ${who}: ${JSON.stringify(res.text)}`);
        }
      };
      // Refusals first, between two readings of the whole database; then the calls that may change it.
      const refused = WHO.filter((who) => ACCESS_REFUSALS.has(cellIn(row, who).split(' ')[1] ?? '') || cellIn(row, who) === HIDDEN);
      const before = await databaseState();
      for (const who of refused) await ask(who);
      const after = await databaseState();
      for (const table of Object.keys(after)) if (after[table] !== before[table]) changed.push(`${name}: ${table}`);
      for (const who of WHO.filter((w) => !refused.includes(w))) await ask(who);
      observed.push([name, ...WHO.map((who) => cells.get(who))].join(' | '));
    }
    expect(observed).toEqual(POLICY.map((row) => row.map(String).join(' | ')));
    expect(changed).toEqual([]);
    expect(texts).toEqual([]);
  }, 180_000);

  it('a call that changes something with the session cookie, or with no session, and without the XSRF token gets 419 and changes nothing; with the token, what the table says', async () => {
    const outcomes: string[] = [];
    const wanted: string[] = [];
    for (const route of ALL_CONTRACTS.filter((r) => r.method !== 'GET' && !r.signed)) {
      const who = callerOf(route);
      const [bare, full] = [await requestOf(route), await requestOf(route)];
      const before = await databaseState();
      const refused = await send(route, bare, who, { via: 'cookie', xsrf: false });
      const unchanged = JSON.stringify(await databaseState()) === JSON.stringify(before);
      const allowed = await send(route, full, who, { via: 'cookie' });
      outcomes.push(`${label(route)} as ${who}: ${cellOf(refused)}, unchanged ${String(unchanged)}; with the token ${cellOf(allowed)}`);
      wanted.push(`${label(route)} as ${who}: 419 CSRF_MISMATCH, unchanged true; with the token ${cellIn(rowOf(route), who)}`);
    }
    expect(outcomes.length).toBeGreaterThan(40);
    expect(outcomes).toEqual(wanted);
  }, 120_000);

  it('a read with the session cookie needs no XSRF token: the same status as with the bearer token', async () => {
    const outcomes: string[] = [];
    const wanted: string[] = [];
    for (const route of ALL_CONTRACTS.filter((r) => r.method === 'GET')) {
      const who = callerOf(route);
      outcomes.push(`${label(route)} as ${who}: ${cellOf(await send(route, await requestOf(route), who, { via: 'cookie' }))}`);
      wanted.push(`${label(route)} as ${who}: ${cellIn(rowOf(route), who)}`);
    }
    expect(outcomes).toEqual(wanted);
  });

  it('no session, or a revoked one, is a guest wherever a user is needed, whatever the call sends: 401 before any validation', async () => {
    const user = await newUser(t.db);
    const session = await createSession(t.db, user.id, 1, { ip: '127.0.0.1', userAgent: 'matrix' });
    await revokeSession(t.db, session.id);
    const outcomes: string[] = [];
    const wanted: string[] = [];
    for (const route of ALL_CONTRACTS.filter((r) => cellIn(rowOf(r), 'guest') === ANON)) {
      const url = buildPath(route.path, { id: 1, kind: 'privacy' });
      const payload = route.method === 'GET' ? undefined : { nonsense: true };
      for (const [via, auth] of [['nobody', {}], ['a revoked bearer token', { token: session.bearer }], ['a revoked cookie', { cookies: { session: session.cookie } }]] as const) {
        const res = await call(t.app, { method: route.method, url, payload, ...auth });
        outcomes.push(`${label(route)} with ${via}: ${cellOf({ status: res.statusCode, code: res.data.code })}`);
        wanted.push(`${label(route)} with ${via}: ${ANON}`);
      }
    }
    expect(outcomes).toEqual(wanted);
  });

  it('webhooks answer for their signature, not for a session: a wrong one gets 401, a right one is handled', async () => {
    const telegram = (secret: string) => call(t.app, { method: 'POST', url: '/api/telegram/webhook', payload: { update_id: 1 }, headers: { 'x-telegram-bot-api-secret-token': secret } });
    expect((await telegram('wrong-secret')).data.code).toBe('INVALID_SIGNATURE');
    expect((await telegram(TELEGRAM_SECRET)).statusCode).toBe(200);

    const prediction = JSON.stringify({ id: 'no-such-prediction', status: 'succeeded' });
    const replicate = (secret: string) => {
      const id = `msg_${uuid()}`;
      const timestamp = Math.floor(Date.now() / 1000);
      // The address our server gives Replicate for a run: the run and its token.
      return t.app.inject({
        method: 'POST',
        url: `/api/replicate/webhook?run=1&token=${webhookToken(t.ctx.secrets.appSecret, 1)}`,
        payload: prediction,
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': FakeReplicate.sign(secret, id, timestamp, prediction) },
      });
    };
    expect((await replicate(`whsec_${Buffer.from('another-secret').toString('base64')}`)).statusCode).toBe(401);
    expect((await replicate(REPLICATE_SECRET)).json()).toEqual({ result: 'ignored' });

    const fields = payFields({ payment_id: await fresh.payment(), amount: catalog.wordsPack.amount_kopecks / 100 }, users.owner);
    expect((await notify(t.app, 'check', fields, { secret: 'another-secret' })).status).toBe(401);
    expect(await notify(t.app, 'check', fields)).toMatchObject({ status: 200, code: 0 });
  });
});
