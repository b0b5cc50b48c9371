import type { Tx } from '../../db/database.ts';
import { credit } from '../wallet/wallet.queries.ts';
import type { LedgerReason } from '../wallet/wallet.table.ts';
import { saveCard } from '../billing/cards.queries.ts';
import type { PaymentNotification } from './notification.schema.ts';
import { cardFingerprints, rememberCard } from '../promo/referral.service.ts';

/** What a paid payment grants, once: keyed by the payment (an invoice or a renewal charge) and the wallet. */
export async function grant(tx: Tx, userId: number, reason: LedgerReason, ref: { type: 'invoice' | 'auto_charge'; id: number }, words: number, mediaTenths: number): Promise<void> {
  const base = { userId, reason, refType: ref.type, refId: ref.id };
  if (words > 0) await credit(tx, { ...base, kind: 'words', idempotencyKey: `${ref.type}:${String(ref.id)}:words` }, words);
  if (mediaTenths > 0) await credit(tx, { ...base, kind: 'media', idempotencyKey: `${ref.type}:${String(ref.id)}:media` }, mediaTenths);
}

/** Keeps the card a payment used (CloudPayments' token), for the plan's auto-renewal. */
export async function saveCardOf(tx: Tx, userId: number, n: PaymentNotification): Promise<void> {
  await rememberCard(tx, userId, cardFingerprints(n));
  if (!n.Token || !n.CardLastFour) return;
  await saveCard(tx, userId, { token: n.Token, firstSix: n.CardFirstSix ?? null, lastFour: n.CardLastFour, type: n.CardType ?? null });
}
