import type { AppContext } from '../../context.ts';
import type { Balances, WelcomeState } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';
import { credit, getBalances, mediaFromWire } from '../wallet/wallet.queries.ts';
import { assertSandboxOn } from '../settings/settings.store.ts';
import { isChannelMember } from './telegram.client.ts';
import {
  closeWelcomeNotice,
  insertLinkCode,
  ledgerKeyExists,
  lockLinkCode,
  lockUserNoKey,
  markLinkCodeUsed,
  openLinkCode,
  setTelegramId,
  userByTelegramId,
  welcomeFields,
} from './welcome.queries.ts';

const giftKey = (userId: number, kind: 'words' | 'media') => `welcome:${String(userId)}:${kind}`;
const LINK_TTL_MS = 24 * 3_600_000;

/** Telegram ids the sandbox bot gives: one per site account, far from real ones' range. */
export const sandboxTelegramId = (userId: number) => 7_000_000_000 + userId;

/** The news channel's address (the settings name it as the Bot API does: `@name`). */
export const channelUrl = (channel: string) => `https://t.me/${channel.replace(/^@/, '')}`;

async function linkCode(ctx: AppContext, userId: number): Promise<string> {
  const existing = await openLinkCode(ctx.db, userId, new Date(Date.now() - LINK_TTL_MS));
  if (existing) return existing.code;
  // ≤ 64 characters of A-Za-z0-9_- (the deep-link payload rule).
  const code = randomToken('', 18);
  await insertLinkCode(ctx.db, userId, code);
  return code;
}

export async function isGiftClaimed(ctx: AppContext, userId: number): Promise<boolean> {
  return ledgerKeyExists(ctx.db, giftKey(userId, 'words'));
}

export async function welcomeState(ctx: AppContext, userId: number): Promise<WelcomeState> {
  const user = await welcomeFields(ctx.db, userId);
  const { telegram } = ctx.config;
  const settings = ctx.settings.current;
  const code = await linkCode(ctx, userId);
  return {
    visible: user.welcome_closed_at === null,
    gift: { words: settings.welcome_words, media: settings.welcome_media },
    channel_url: channelUrl(settings.telegram_channel),
    bot_url: telegram.sandbox ? `/sandbox/telegram?start=${code}` : `https://t.me/${telegram.botUsername}?start=${code}`,
    linked: user.telegram_id !== null,
    claimed: await isGiftClaimed(ctx, userId),
    sandbox: telegram.sandbox,
  };
}

/**
 * Ties a Telegram account to the site account behind a one-time `/start` code. One Telegram
 * account serves one site account, so the gift cannot be collected twice with it.
 */
export async function linkTelegram(ctx: AppContext, code: string, telegramId: number): Promise<'linked' | 'unknown-code' | 'taken'> {
  try {
    return await linkOnce(ctx, code, telegramId);
  } catch (err) {
    // Two accounts linking one Telegram id at the same moment: the unique index decides.
    if ((err as { code?: string }).code === '23505') return 'taken';
    throw err;
  }
}

async function linkOnce(ctx: AppContext, code: string, telegramId: number): Promise<'linked' | 'unknown-code' | 'taken'> {
  return ctx.db.transaction().execute(async (tx) => {
    const link = await lockLinkCode(tx, code);
    if (!link || link.used_at || link.created_at.getTime() < Date.now() - LINK_TTL_MS) return 'unknown-code';
    const owner = await userByTelegramId(tx, telegramId);
    if (owner && owner.id !== link.user_id) return 'taken';
    await setTelegramId(tx, link.user_id, telegramId);
    await markLinkCodeUsed(tx, code);
    return 'linked';
  });
}

/** Checks channel membership and grants the welcome gift (the amounts in the settings at the time), at most once per account. */
export async function claimWelcomeGift(ctx: AppContext, userId: number): Promise<Balances> {
  if (await isGiftClaimed(ctx, userId)) throw new AppError('GIFT_ALREADY_CLAIMED');
  assertSandboxOn(ctx, 'telegram');
  const user = await welcomeFields(ctx.db, userId);
  if (user.telegram_id === null) throw new AppError('TELEGRAM_NOT_LINKED');
  const settings = ctx.settings.current;
  const member = await ctx.telegram.getChatMember(settings.telegram_channel, user.telegram_id);
  if (!isChannelMember(member)) throw new AppError('TELEGRAM_NOT_MEMBER');
  const granted = await ctx.db.transaction().execute(async (tx) => {
    // NO KEY UPDATE: a plain FOR UPDATE blocks every ledger or hold insert of this user (their user_id foreign key) and
    // deadlocks with a refund that has locked the wallet and is about to write its ledger row.
    await lockUserNoKey(tx, userId);
    const words = await credit(tx, { userId, kind: 'words', reason: 'welcome_gift', idempotencyKey: giftKey(userId, 'words'), refType: 'telegram', refId: user.telegram_id ?? undefined }, settings.welcome_words);
    if (!words) return false;
    // The words' line marks the gift as claimed (the settings keep it at 1 word at least); media may be set to none.
    const media = mediaFromWire(settings.welcome_media);
    if (media > 0) await credit(tx, { userId, kind: 'media', reason: 'welcome_gift', idempotencyKey: giftKey(userId, 'media'), refType: 'telegram', refId: user.telegram_id ?? undefined }, media);
    return true;
  });
  if (!granted) throw new AppError('GIFT_ALREADY_CLAIMED');
  return getBalances(ctx.db, userId);
}

export async function closeWelcome(ctx: AppContext, userId: number): Promise<void> {
  await closeWelcomeNotice(ctx.db, userId);
}

/** Handles a bot update: `/start <code>` links the account and answers in the chat. */
export async function handleTelegramUpdate(ctx: AppContext, update: { message?: { text?: string; from?: { id: number }; chat?: { id: number } } }): Promise<void> {
  const text = update.message?.text?.trim() ?? '';
  const from = update.message?.from?.id;
  const chat = update.message?.chat?.id;
  const match = /^\/start(?:@\w+)?\s+([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (!match?.[1] || typeof from !== 'number') return;
  const result = await linkTelegram(ctx, match[1], from);
  if (typeof chat !== 'number') return;
  const channel = ctx.settings.current.telegram_channel;
  const reply = {
    linked: `Аккаунт Нейростудии привязан. Подпишитесь на канал ${channel} и нажмите на сайте «Я подписался», чтобы получить подарок.`,
    'unknown-code': 'Ссылка устарела. Откройте бота заново с сайта Нейростудии.',
    taken: 'Этот Telegram-аккаунт уже привязан к другому аккаунту Нейростудии.',
  }[result];
  await ctx.telegram.sendMessage(chat, reply).catch(() => undefined);
}
