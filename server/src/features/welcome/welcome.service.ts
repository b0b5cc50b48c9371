import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { WELCOME_GIFT, type Balances, type WelcomeState } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';
import { credit, getBalances, mediaFromWire } from '../wallet/wallet.queries.ts';
import { isChannelMember } from './telegram.client.ts';

const giftKey = (userId: number, kind: 'words' | 'media') => `welcome:${String(userId)}:${kind}`;
const LINK_TTL_MS = 24 * 3_600_000;

/** Telegram ids the sandbox bot gives: one per site account, far from real ones' range. */
export const sandboxTelegramId = (userId: number) => 7_000_000_000 + userId;

const channelUrl = (channel: string) => `https://t.me/${channel.replace(/^@/, '')}`;

async function linkCode(app: FastifyInstance, userId: number): Promise<string> {
  const existing = await app.db
    .selectFrom('telegram_links')
    .select('code')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('created_at', '>', new Date(Date.now() - LINK_TTL_MS))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (existing) return existing.code;
  // ≤ 64 characters of A-Za-z0-9_- (the deep-link payload rule).
  const code = randomToken('', 18);
  await app.db.insertInto('telegram_links').values({ code, user_id: userId, used_at: null }).execute();
  return code;
}

export async function isGiftClaimed(app: FastifyInstance, userId: number): Promise<boolean> {
  const row = await app.db.selectFrom('wallet_ledger').select('id').where('idempotency_key', '=', giftKey(userId, 'words')).executeTakeFirst();
  return row !== undefined;
}

export async function welcomeState(app: FastifyInstance, userId: number): Promise<WelcomeState> {
  const user = await app.db.selectFrom('users').select(['welcome_closed_at', 'telegram_id']).where('id', '=', userId).executeTakeFirstOrThrow();
  const { telegram } = app.config;
  const code = await linkCode(app, userId);
  return {
    visible: user.welcome_closed_at === null,
    gift: { words: WELCOME_GIFT.words, media: WELCOME_GIFT.media },
    channel_url: channelUrl(telegram.channel),
    bot_url: telegram.sandbox ? `/sandbox/telegram?start=${code}` : `https://t.me/${telegram.botUsername}?start=${code}`,
    linked: user.telegram_id !== null,
    claimed: await isGiftClaimed(app, userId),
    sandbox: telegram.sandbox,
  };
}

/**
 * Ties a Telegram account to the site account behind a one-time `/start` code. One Telegram
 * account serves one site account, so the gift cannot be collected twice with it.
 */
export async function linkTelegram(app: FastifyInstance, code: string, telegramId: number): Promise<'linked' | 'unknown-code' | 'taken'> {
  try {
    return await linkOnce(app, code, telegramId);
  } catch (err) {
    // Two accounts linking one Telegram id at the same moment: the unique index decides.
    if ((err as { code?: string }).code === '23505') return 'taken';
    throw err;
  }
}

async function linkOnce(app: FastifyInstance, code: string, telegramId: number): Promise<'linked' | 'unknown-code' | 'taken'> {
  return app.db.transaction().execute(async (tx) => {
    const link = await tx.selectFrom('telegram_links').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();
    if (!link || link.used_at || link.created_at.getTime() < Date.now() - LINK_TTL_MS) return 'unknown-code';
    const owner = await tx.selectFrom('users').select('id').where('telegram_id', '=', telegramId).executeTakeFirst();
    if (owner && owner.id !== link.user_id) return 'taken';
    await tx.updateTable('users').set({ telegram_id: telegramId, updated_at: new Date() }).where('id', '=', link.user_id).execute();
    await tx.updateTable('telegram_links').set({ used_at: new Date() }).where('code', '=', code).execute();
    return 'linked';
  });
}

/** Checks channel membership and grants the welcome gift, at most once per account. */
export async function claimWelcomeGift(app: FastifyInstance, userId: number): Promise<Balances> {
  if (await isGiftClaimed(app, userId)) throw new AppError('GIFT_ALREADY_CLAIMED');
  const user = await app.db.selectFrom('users').select(['telegram_id']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.telegram_id === null) throw new AppError('TELEGRAM_NOT_LINKED');
  const member = await app.telegram.getChatMember(app.config.telegram.channel, user.telegram_id);
  if (!isChannelMember(member)) throw new AppError('TELEGRAM_NOT_MEMBER');
  const granted = await app.db.transaction().execute(async (tx) => {
    // NO KEY UPDATE: a plain FOR UPDATE blocks every ledger or hold insert of this user (their user_id foreign key) and
    // deadlocks with a refund that has locked the wallet and is about to write its ledger row.
    await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirstOrThrow();
    const words = await credit(tx, { userId, kind: 'words', reason: 'welcome_gift', idempotencyKey: giftKey(userId, 'words'), refType: 'telegram', refId: user.telegram_id ?? undefined }, WELCOME_GIFT.words);
    if (!words) return false;
    await credit(tx, { userId, kind: 'media', reason: 'welcome_gift', idempotencyKey: giftKey(userId, 'media'), refType: 'telegram', refId: user.telegram_id ?? undefined }, mediaFromWire(WELCOME_GIFT.media));
    return true;
  });
  if (!granted) throw new AppError('GIFT_ALREADY_CLAIMED');
  return getBalances(app.db, userId);
}

export async function closeWelcome(app: FastifyInstance, userId: number): Promise<void> {
  await app.db.updateTable('users').set({ welcome_closed_at: sql<Date>`coalesce(welcome_closed_at, now())` }).where('id', '=', userId).execute();
}

/** Handles a bot update: `/start <code>` links the account and answers in the chat. */
export async function handleTelegramUpdate(app: FastifyInstance, update: { message?: { text?: string; from?: { id: number }; chat?: { id: number } } }): Promise<void> {
  const text = update.message?.text?.trim() ?? '';
  const from = update.message?.from?.id;
  const chat = update.message?.chat?.id;
  const match = /^\/start(?:@\w+)?\s+([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (!match?.[1] || typeof from !== 'number') return;
  const result = await linkTelegram(app, match[1], from);
  if (typeof chat !== 'number') return;
  const channel = app.config.telegram.channel;
  const reply = {
    linked: `Аккаунт Нейростудии привязан. Подпишитесь на канал ${channel} и нажмите на сайте «Я подписался», чтобы получить подарок.`,
    'unknown-code': 'Ссылка устарела. Откройте бота заново с сайта Нейростудии.',
    taken: 'Этот Telegram-аккаунт уже привязан к другому аккаунту Нейростудии.',
  }[result];
  await app.telegram.sendMessage(chat, reply).catch(() => undefined);
}
