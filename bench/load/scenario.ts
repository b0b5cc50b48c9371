import crypto from 'node:crypto';
import { payFields, signedNotification, type Part } from '@app/server/testing';
import { addressOf, Client, type Recorder, type Reply } from './client.ts';
import type { LoadProfile } from './profile.ts';

/*
 * What the simulated people do. A user signs in (a newcomer registers first and confirms the
 * code that comes by mail), buys the trial plan, then keeps chatting
 * (streamed answers, some stopped), generating (images, clips, texts; some cancelled while
 * queued, the rest followed to their end), reading their pages and buying packages (now and
 * then a Pay notification is sent again, as CloudPayments retries), with a pause between two
 * actions. An admin refunds parts of payments and adjusts balances (now and then the same
 * request twice). Each keeps going until the load phase ends.
 */

export interface Person {
  id: number;
  email: string;
  password: string;
  /** Which simulated person (its loopback address). */
  n: number;
}

export interface Tariff {
  id: number;
  /** Package (3) or plan. */
  type: number;
}

/** Everything the people share: where the service is, the catalogue, and what they did that the checks afterwards need. */
export interface World {
  url: string;
  profile: LoadProfile;
  recorder: Recorder;
  /** The sandbox's notification secret, to send a Pay again as CloudPayments would. */
  cpSecret: string;
  chatModels: { demo: number; fake: number };
  products: { image: number; video: number; text: number };
  tariffs: { trial: Tariff; monthly: Tariff; wordsPack: Tariff; mediaPack: Tariff };
  /** Charges the sandbox answered as paid: each must be credited, once. */
  paid: { invoiceId: number; userId: number; transactionId: number }[];
  /** The confirmation code mailed to `email` (the newest), as the person reads it in their mail. */
  mailedCode: (email: string) => Promise<string>;
  /** Users keep working while this answers true (the load phase is on). */
  running: () => boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);
const chance = (p: number) => Math.random() < p;

const QUESTIONS = ['Как выучить английский за год?', 'Составь план тренировок на неделю', 'Что почитать о космосе?', 'Придумай название для кофейни', 'Объясни, как работает ипотека'];
const PROMPTS = ['Маяк на скале в шторм', 'Кот в космическом шлеме', 'Осенний парк акварелью', 'Город будущего ночью'];

/** The `json` of a successful reply (its shape as the contract says), or null. */
const json = (reply: Reply | null): unknown => (reply && reply.status === 200 ? reply.body.json : null);

/** The value of cookie `name` among a reply's Set-Cookie headers. */
function cookieOf(reply: Reply, name: string): string | null {
  const header = reply.headers['set-cookie'];
  for (const line of Array.isArray(header) ? header : header ? [header] : []) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** A guest's form as a browser sends it: the CSRF pair first, then the form; answers the bearer token. */
async function guestForm(client: Client, kind: string, path: string, body: unknown, expect: string[] = []): Promise<{ token: string; user: { id: number } } | null> {
  const csrf = await client.call('csrf', 'GET', '/sanctum/csrf-cookie', { anonymous: true });
  const xsrf = csrf && cookieOf(csrf, 'XSRF-TOKEN');
  if (!xsrf) return null;
  const reply = await client.call(kind, 'POST', path, { anonymous: true, json: body, headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': decodeURIComponent(xsrf) }, expect });
  return json(reply) as { token: string; user: { id: number } } | null;
}

/** Signs in as a browser does: answers whether it worked. */
async function signIn(client: Client, person: Person): Promise<boolean> {
  const result = await guestForm(client, 'sign_in', '/api/new/login', { email: person.email, password: person.password });
  if (!result) return false;
  client.token = result.token;
  return true;
}

/**
 * Registers (or, when an earlier try got through but its answer was lost, signs in) and confirms
 * the email with the code from the mail; answers whether the person may go on.
 */
async function register(world: World, client: Client, person: Person): Promise<boolean> {
  const body = { email: person.email, password: person.password, password_confirmation: person.password, consent: true };
  const result = (await guestForm(client, 'register', '/api/new/register', body, ['EMAIL_TAKEN'])) ?? (await guestForm(client, 'sign_in', '/api/new/login', body));
  if (!result) return false;
  client.token = result.token;
  person.id = result.user.id;
  const code = await world.mailedCode(person.email).catch(() => null);
  if (!code) return false;
  const confirmed = await client.call('confirm_email', 'POST', '/api/confirm_email', { json: { code }, expect: ['EMAIL_ALREADY_CONFIRMED'] });
  return confirmed !== null && confirmed.status < 500;
}

/**
 * Buys a plan or a package as the checkout does: the invoice, then the sandbox's charge with a
 * test card (which sends the signed Check and Pay, and Recurrent for a plan); now and then the
 * Pay once more, as CloudPayments retries a notification. Answers whether it was paid.
 */
async function buy(world: World, client: Client, person: Person, tariff: Tariff): Promise<boolean> {
  const path = tariff.type === 3 ? `/api/payment/cloudpayments/pay?id=${String(tariff.id)}` : `/api/payment/cloudpayments/subscribe?id=${String(tariff.id)}`;
  // A package needs a current plan; a plan being replaced, or one already there, is refused by design.
  const invoice = json(await client.call('pay_start', 'GET', path, { expect: ['SUBSCRIPTION_REQUIRED', 'SUBSCRIPTION_ALREADY_ACTIVE'] })) as { payment_id: number; amount: number } | null;
  if (!invoice) return false;
  const charged = await client.call('pay_charge', 'POST', '/api/sandbox/cloudpayments/charge', { json: { payment_id: invoice.payment_id, card_number: '4242424242424242', exp: '12/35', cvv: '123' } });
  const charge = json(charged) as { success: boolean; transaction_id: number } | null;
  if (!charge?.success) return false;
  world.paid.push({ invoiceId: invoice.payment_id, userId: person.id, transactionId: charge.transaction_id });
  if (chance(0.3)) {
    const fields = payFields(invoice, { id: person.id, email: person.email, password: '', token: '', cookie: '' }, { TransactionId: charge.transaction_id });
    const reply = await client.call('pay_replay', 'POST', '/api/payment/cloudpayments/notify/pay', { anonymous: true, raw: signedNotification(world.cpSecret, fields) });
    if (reply?.status === 200 && reply.body.code !== 0) world.recorder.add({ kind: 'pay_replay', start: world.recorder.now(), end: world.recorder.now(), outcome: 'error', detail: `answered code ${String(reply.body.code)}` });
  }
  return true;
}

/** Whether the user has a current plan (after a purchase whose answer was lost). */
async function hasPlan(client: Client): Promise<boolean> {
  const check = json(await client.call('subscribe_check', 'GET', '/api/new/subscribe/check')) as { subscriptions: number | null } | null;
  return check?.subscriptions != null;
}

interface ChatState {
  chatId: number | null;
  messages: number;
}

/** A streamed message: on the demo model (a quarter stopped after the first words) or on the fake OpenAI-compatible provider. */
async function chat(world: World, client: Client, state: ChatState): Promise<void> {
  if (state.messages >= 4) Object.assign(state, { chatId: null, messages: 0 });
  const fake = chance(0.4);
  const stop = !fake && chance(0.25);
  const parts: Part[] = [
    { name: 'ai_models_id', value: String(fake ? world.chatModels.fake : world.chatModels.demo) },
    { name: 'message', value: QUESTIONS[Math.floor(Math.random() * QUESTIONS.length)] ?? '' },
  ];
  if (state.chatId) parts.push({ name: 'chat_id', value: String(state.chatId) });
  const stops: Promise<unknown>[] = [];
  let stopped = false;
  const ended = await client.stream(
    fake ? 'chat_fake' : stop ? 'chat_stopped' : 'chat',
    '/api/new/chat/stream',
    parts,
    (event, data) => {
      if (event === 'start') state.chatId = (data as { chat_id: number }).chat_id;
      if (event === 'delta' && stop && !stopped && state.chatId) {
        stopped = true;
        stops.push(client.call('chat_stop', 'POST', `/api/new/chat/${String(state.chatId)}/stop`));
      }
    },
    // A chat whose answer is still being written after a broken stream is busy until it ends.
    ['INSUFFICIENT_TOKENS', 'ANSWERS_BUSY', 'CHAT_BUSY'],
  );
  state.messages += 1;
  // After a broken stream the person starts a new chat rather than wait for that answer.
  if (ended === 'failed') Object.assign(state, { chatId: null, messages: 0 });
  await Promise.all(stops);
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Starts a run (a picture, a text or now and then a clip); a quarter are cancelled at once
 * (refused by design when a worker took it already), the rest followed every second to their
 * end as the page does: `gen_done` from the start to the end, ok when it succeeded.
 */
async function generate(world: World, client: Client): Promise<void> {
  const r = Math.random();
  const prompt = PROMPTS[Math.floor(Math.random() * PROMPTS.length)] ?? '';
  const parts: Part[] =
    r < 0.6
      ? [{ name: 'product_id', value: String(world.products.image) }, { name: 'prompt', value: prompt }]
      : r < 0.85
        ? [{ name: 'product_id', value: String(world.products.text) }, { name: 'fields', value: JSON.stringify({ topic: prompt }) }]
        : [{ name: 'product_id', value: String(world.products.video) }, { name: 'prompt', value: prompt }];
  const started = world.recorder.now();
  const run = json(await client.call('gen_start', 'POST', '/api/new/generations', { parts, expect: ['INSUFFICIENT_TOKENS', 'GENERATIONS_BUSY'] })) as { id: number; status: string } | null;
  if (!run) return;
  if (chance(0.25)) {
    await client.call('gen_cancel', 'POST', `/api/new/generations/${String(run.id)}/cancel`, { expect: ['GENERATION_NOT_CANCELLABLE'] });
    return;
  }
  for (;;) {
    await sleep(1000);
    const now = json(await client.call('gen_status', 'GET', `/api/new/generations/${String(run.id)}`)) as { status: string; error: string | null } | null;
    if (now && FINAL.has(now.status)) {
      world.recorder.add({ kind: 'gen_done', start: started, end: world.recorder.now(), outcome: now.status === 'succeeded' ? 'ok' : 'error', detail: now.status === 'succeeded' ? '' : `${now.status}: ${now.error ?? ''}` });
      return;
    }
    // The page is closed when the load ends; the run goes on and the checks wait for it.
    if (!world.running()) return;
  }
}

const READS: [string, string][] = [
  ['user', '/api/new/user'],
  ['tariffs', '/api/new/tariff?frontend=1'],
  ['subscribe_check', '/api/new/subscribe/check'],
  ['chat_list', '/api/new/chat?page=1'],
  ['history', '/api/new/generations?type=image&page=1'],
  ['balance_history', '/api/new/balance/history?page=1'],
  ['dashboard', '/api/new/dashboard'],
];

async function read(client: Client): Promise<void> {
  const [kind, path] = READS[Math.floor(Math.random() * READS.length)] ?? READS[0] ?? ['user', '/api/new/user'];
  await client.call(kind, 'GET', path);
}

/** One simulated user, from sign-in (a newcomer: registration) until the load phase ends. */
export async function simulateUser(world: World, person: Person, opts: { newcomer?: boolean } = {}): Promise<void> {
  const client = new Client(world.url, addressOf(person.n), world.recorder);
  const { profile } = world;
  try {
    await sleep(between(0, profile.rampMs));
    while (!(await (opts.newcomer ? register(world, client, person) : signIn(client, person)))) await sleep(1000);
    let planned = await buy(world, client, person, world.tariffs.trial);
    const state: ChatState = { chatId: null, messages: 0 };
    while (world.running()) {
      await sleep(between(...profile.thinkMs));
      if (!world.running()) break;
      if (!planned) {
        planned = (await hasPlan(client)) || (await buy(world, client, person, world.tariffs.trial));
        continue;
      }
      const r = Math.random();
      if (r < profile.generateShare) await generate(world, client);
      else if (r < profile.generateShare + 0.35) await chat(world, client, state);
      else if (r < profile.generateShare + 0.39) await buy(world, client, person, chance(0.5) ? world.tariffs.wordsPack : world.tariffs.mediaPack);
      else if (r < profile.generateShare + 0.4) await buy(world, client, person, world.tariffs.monthly);
      else if (r < profile.generateShare + 0.42) await signIn(client, person);
      else await read(client);
    }
  } finally {
    await client.close();
  }
}

interface PaymentRow {
  id: number;
  refundable: number;
}

/** An admin refunds a part of a paid payment, once per request (a quarter sent twice). */
async function refund(client: Client): Promise<void> {
  const page = json(await client.call('admin_payments', 'GET', `/api/admin/payments?status=paid&page=${String(1 + Math.floor(Math.random() * 3))}`)) as { data: PaymentRow[] } | null;
  const candidates = page?.data.filter((p) => p.refundable >= 1) ?? [];
  const payment = candidates[Math.floor(Math.random() * candidates.length)];
  if (!payment) return;
  const body = { amount: Math.min(payment.refundable, 1 + Math.floor(Math.random() * 30)), reason: 'Нагрузочная проверка: частичный возврат', request_id: crypto.randomUUID() };
  const send = () => client.call('admin_refund', 'POST', `/api/admin/payments/${String(payment.id)}/refund`, { json: body, expect: ['REFUND_TOO_LARGE', 'REFUND_NOT_ALLOWED'] });
  await send();
  if (chance(0.25)) await send();
}

/** An admin adds to or takes from a user's wallet, once per request (a quarter sent twice). */
async function adjust(world: World, client: Client, users: Person[]): Promise<void> {
  const user = users[Math.floor(Math.random() * users.length)];
  if (!user) return;
  const media = chance(0.5);
  const amount = (chance(0.6) ? 1 : -1) * (media ? 1 + Math.floor(Math.random() * 5) : 100 + Math.floor(Math.random() * 900));
  const body = { wallet: media ? 'media' : 'words', amount, reason: 'Нагрузочная проверка: корректировка', request_id: crypto.randomUUID() };
  const send = () => client.call('admin_adjust', 'POST', `/api/admin/users/${String(user.id)}/balance`, { json: body, expect: ['BALANCE_TOO_LOW'] });
  await send();
  if (chance(0.25)) await send();
}

/** One simulated admin, from sign-in until the load phase ends. */
export async function simulateAdmin(world: World, person: Person, users: Person[]): Promise<void> {
  const client = new Client(world.url, addressOf(person.n), world.recorder);
  try {
    await sleep(between(0, world.profile.rampMs));
    while (!(await signIn(client, person))) await sleep(1000);
    while (world.running()) {
      await sleep(between(...world.profile.thinkMs));
      if (!world.running()) break;
      const r = Math.random();
      if (r < 0.4) await refund(client);
      else if (r < 0.8) await adjust(world, client, users);
      else await client.call('admin_users', 'GET', '/api/admin/users?page=1');
    }
  } finally {
    await client.close();
  }
}
