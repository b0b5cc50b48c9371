import { pluralRu, rateLimitedText, type PromoRedemption } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor, Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { hitRateLimit, returnRateLimitHit, type RateLimitHit } from '../../lib/rate-limits.queries.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { credit, getBalances, mediaToWire } from '../wallet/wallet.queries.ts';
import { countUses, findRedemption, hasPaidAnything, insertRedemption, lockPromoByCode, tariffName } from './promo.queries.ts';
import type { PromoCodeRow } from './promo.table.ts';

/**
 * Guessing codes is limited: each attempt is counted first (so attempts at once cannot all pass
 * an uncounted check) and given back when the code exists, whatever the outcome, so only
 * unknown codes use the allowance: 10 an hour a user, 30 an hour an address.
 */
export const PROMO_LIMITS = {
  perUser: { max: 10, windowSeconds: 3600 },
  perIp: { max: 30, windowSeconds: 3600 },
} as const;

const limitedText = (seconds: number) => rateLimitedText(seconds).replace('Слишком много попыток', 'Слишком много попыток ввести промокод');

/** Runs `attempt` counted against the guessing limits; `attempt` calls `known()` once the code is found. */
export async function guarded<T>(ctx: AppContext, userId: number, ip: string, attempt: (known: () => void) => Promise<T>): Promise<T> {
  const now = ctx.clock();
  const hits: RateLimitHit[] = [];
  hits.push(await hitRateLimit(ctx.db, `promo:user:${String(userId)}`, PROMO_LIMITS.perUser, now, limitedText));
  try {
    hits.push(await hitRateLimit(ctx.db, `promo:ip:${ip}`, PROMO_LIMITS.perIp, now, limitedText));
  } catch (err) {
    await returnRateLimitHit(ctx.db, hits[0] as RateLimitHit);
    throw err;
  }
  const code = { known: false };
  try {
    return await attempt(() => {
      code.known = true;
    });
  } finally {
    if (code.known) await Promise.all(hits.map((h) => returnRateLimitHit(ctx.db, h)));
  }
}

/** Whether a code works now, for anyone: refuses an unknown, switched-off, not yet valid or ended one. */
export function assertCodeLive(promo: PromoCodeRow | undefined, now: Date): asserts promo is PromoCodeRow {
  if (!promo) throw new AppError('PROMO_NOT_FOUND');
  if (promo.disabled_at) throw new AppError('PROMO_DISABLED');
  if (promo.starts_at && now < promo.starts_at) throw new AppError('PROMO_NOT_STARTED', `Промокод действует с ${promo.starts_at.toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow' })}`);
  if (promo.ends_at && now >= promo.ends_at) throw new AppError('PROMO_EXPIRED');
}

/**
 * Whether this user may take the code (under the code's lock): once per user and code (a discount
 * given on a checkout that failed does not count), within its uses, and new users only where it says.
 * Answers the user's earlier redemption of a discount whose checkout is open or failed: it moves to the new checkout.
 */
export async function assertUserMayRedeem(tx: Executor, promo: PromoCodeRow, userId: number): Promise<{ reuse: number | null }> {
  const mine = await findRedemption(tx, promo.id, userId);
  const counts = mine !== undefined && (mine.invoice_id === null || mine.invoice_status === 'paid' || mine.invoice_status === 'refunded');
  if (counts) throw new AppError('PROMO_ALREADY_USED');
  const uses = await countUses(tx, promo.id);
  // The user's own open checkout is one of the uses counted: taking the code again does not add one.
  const ownOpen = mine !== undefined && mine.invoice_status === 'pending' ? 1 : 0;
  if (promo.max_uses !== null && uses - ownOpen >= promo.max_uses) throw new AppError('PROMO_USED_UP');
  if (promo.new_users_only && (await hasPaidAnything(tx, userId))) throw new AppError('PROMO_NEW_USERS_ONLY');
  return { reuse: mine?.id ?? null };
}

const words = (n: number) => n.toLocaleString('ru-RU');

/** What a discount code is, in the user's words. */
async function discountAnswer(db: Executor, promo: PromoCodeRow): Promise<PromoRedemption> {
  const tariff = promo.tariff_id === null ? undefined : await tariffName(db, promo.tariff_id);
  const plan = tariff ? `тарифа «${tariff.name}»` : 'тарифа';
  return {
    kind: 'discount',
    code: promo.code,
    percent: promo.discount_percent ?? 0,
    tariff: tariff ? { id: tariff.id, name: tariff.name } : null,
    message: `Скидка ${String(promo.discount_percent)} % на первую оплату ${plan}: выберите тариф и введите промокод при оплате`,
  };
}

/**
 * Redeems a code on the balance page: a tokens code credits its words and media tokens once per
 * user and code, as ledger lines «Промокод …» written with the redemption under the code's lock;
 * a discount code is checked and explained (it is taken at the plan's checkout).
 */
export async function redeemPromo(ctx: AppContext, viewer: Viewer, code: string, ip: string): Promise<PromoRedemption> {
  return guarded(ctx, viewer.id, ip, (known) =>
    ctx.db.transaction().execute(async (tx) => {
      const promo = await lockPromoByCode(tx, code);
      if (promo) known();
      assertCodeLive(promo, new Date());
      await assertUserMayRedeem(tx, promo, viewer.id);
      if (promo.kind === 'discount') return discountAnswer(tx, promo);
      await creditPromo(tx, promo, viewer.id);
      const balances = await getBalances(tx, viewer.id);
      const media = mediaToWire(promo.media_tenths);
      const parts = [
        promo.words > 0 ? `${words(promo.words)} ${pluralRu(promo.words, ['слово', 'слова', 'слов'])}` : null,
        media > 0 ? `${media.toLocaleString('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} медиа ${Number.isInteger(media) ? pluralRu(media, ['токен', 'токена', 'токенов']) : 'токена'}` : null,
      ].filter(Boolean);
      return { kind: 'tokens', code: promo.code, words: promo.words, media, balances, message: `Промокод ${promo.code} активирован: начислено ${parts.join(' и ')}` };
    }),
  );
}

/** The redemption and its ledger lines, keyed by code and user, in the caller's transaction. */
async function creditPromo(tx: Tx, promo: PromoCodeRow, userId: number): Promise<void> {
  const inserted = await insertRedemption(tx, { promo_code_id: promo.id, user_id: userId, words: promo.words, media_tenths: promo.media_tenths });
  if (!inserted) throw new AppError('PROMO_ALREADY_USED');
  const base = { userId, reason: 'promo_code' as const, refType: 'promo_code', refId: promo.id, note: promo.code };
  if (promo.words > 0) await credit(tx, { ...base, kind: 'words', idempotencyKey: `promo:${String(promo.id)}:${String(userId)}:words` }, promo.words);
  if (promo.media_tenths > 0) await credit(tx, { ...base, kind: 'media', idempotencyKey: `promo:${String(promo.id)}:${String(userId)}:media` }, promo.media_tenths);
}
