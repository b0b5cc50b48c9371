import crypto from 'node:crypto';
import { referralLink, type ReferralSummary } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { credit, takeBackUpTo } from '../wallet/wallet.queries.ts';
import type { InvoiceRow } from '../billing/billing.table.ts';
import { bonusOfInvoice, insertBonus, paidWithAnyOf, recordCards, referralCodeOf, referralStats, referrerOf, setReferralCode, takenBackOf } from './referral.queries.ts';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Ten letters and digits (no look-alikes): 50 bits, never guessed into another's link. */
const newCode = () => Array.from(crypto.randomBytes(10), (b) => ALPHABET[b % ALPHABET.length]).join('');

/** The user's referral code, made when first asked for. */
async function referralCode(ctx: AppContext, userId: number): Promise<string> {
  const existing = (await referralCodeOf(ctx.db, userId))?.referral_code;
  if (existing) return existing;
  for (;;) {
    const code = await setReferralCode(ctx.db, userId, newCode());
    if (code) return code;
  }
}

/** The viewer's link and what it brought. */
export async function referralSummary(ctx: AppContext, userId: number): Promise<ReferralSummary> {
  const code = await referralCode(ctx, userId);
  const stats = await referralStats(ctx.db, userId);
  return { code, link: referralLink(ctx.config.publicUrl, code), bonus_words: ctx.settings.current.referral_words, invited: stats.invited, paid: stats.paid, earned_words: stats.earned };
}

/** A card as the payment named it: CloudPayments' token, and its first six and last four digits. */
export function cardFingerprints(n: { Token?: string | undefined; CardFirstSix?: string | undefined; CardLastFour?: string | undefined }): string[] {
  const prints: string[] = [];
  if (n.Token) prints.push(`token:${n.Token}`);
  if (n.CardFirstSix && n.CardLastFour) prints.push(`pan:${n.CardFirstSix}*${n.CardLastFour.slice(-4)}`);
  return prints;
}

/** Keeps the card a payment used among the cards its user has paid with. */
export const rememberCard = (tx: Tx, userId: number, fingerprints: readonly string[]) => recordCards(tx, userId, fingerprints);

/**
 * An invited account's first payment (in the Pay's transaction): the inviter earns the bonus staff
 * set, once per invited account (the bonus row's key), unless the payment's card is one the inviter
 * has paid with (then the row records that, and nothing is credited).
 */
export async function referralBonusOnPay(ctx: AppContext, tx: Tx, invoice: Pick<InvoiceRow, 'id' | 'user_id'>, fingerprints: readonly string[]): Promise<void> {
  const inviterId = (await referrerOf(tx, invoice.user_id))?.referred_by;
  if (!inviterId || inviterId === invoice.user_id) return;
  const sameCard = await paidWithAnyOf(tx, inviterId, fingerprints);
  const words = ctx.settings.current.referral_words;
  const recorded = await insertBonus(tx, { invited_id: invoice.user_id, inviter_id: inviterId, invoice_id: invoice.id, words, status: sameCard ? 'same_card' : 'granted' });
  if (!recorded || sameCard || words <= 0) return;
  await credit(tx, { userId: inviterId, kind: 'words', reason: 'referral_bonus', idempotencyKey: `referral:${String(invoice.user_id)}:words`, refType: 'referral', refId: invoice.user_id }, words);
}

/**
 * A refund of an invited account's first payment takes the inviter's bonus back as grants are taken
 * back: in proportion to the money this refund adds to the refunded total, from the balance, and
 * what it lacks from the inviter's work under way as that work ends (`takeBackUpTo`).
 */
export async function referralBonusOnRefund(tx: Tx, invoice: Pick<InvoiceRow, 'id' | 'amount_kopecks'>, span: { from: number; to: number }, key: string): Promise<void> {
  const bonus = await bonusOfInvoice(tx, invoice.id);
  if (!bonus || bonus.words <= 0 || invoice.amount_kopecks <= 0) return;
  const paid = invoice.amount_kopecks;
  const takenBefore = await takenBackOf(tx, bonus.inviter_id, bonus.invited_id);
  const wanted = Math.min(bonus.words - takenBefore, Math.floor((bonus.words * span.to) / paid) - Math.floor((bonus.words * span.from) / paid));
  if (wanted <= 0) return;
  await takeBackUpTo(tx, { userId: bonus.inviter_id, kind: 'words', reason: 'referral_bonus', idempotencyKey: `${key}:referral`, refType: 'referral_refund', refId: bonus.invited_id, note: 'Приглашённый вернул оплату' }, wanted);
}
