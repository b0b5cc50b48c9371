import { BALANCE_HISTORY_PAGE_SIZE, type BalanceLine } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { balanceLinesPage, countBalanceLines, type BalanceLineRow } from './balance-history.queries.ts';
import { mediaToWire } from './wallet.queries.ts';

const quoted = (name: string | null) => (name ? `«${name}»` : '');
const named = (what: string, name: string | null) => (name ? `${what} ${quoted(name)}` : what);

/** What a piece of work was: a chat answer (its chat may be gone), a chat's summary that started a new one, a run of a product. */
function workTitle(row: BalanceLineRow): string {
  if (row.ref_type === 'chat_message') return row.chat_title === null ? 'Ответ в удалённом чате' : `Ответ в чате ${quoted(row.chat_title)}`;
  if (row.ref_type === 'chat_summary') return row.summarized_title === null ? 'Краткое содержание чата для нового чата' : `Краткое содержание чата ${quoted(row.summarized_title)}`;
  if (row.ref_type === 'generation') return named('Генерация', row.product_name);
  return 'Работа нейросети';
}

/** Which payment a refund took tokens back for. */
function refundTitle(row: BalanceLineRow): string {
  if (row.ref_type === 'auto_charge_refund') return named('Возврат оплаты продления тарифа', row.charge_name);
  if (row.ref_type === 'referral_refund') return 'Бонус за приглашённого отменён';
  if (row.ref_type === 'invoice_refund') return named(row.invoice_kind === 'package' ? 'Возврат оплаты пакета' : 'Возврат оплаты тарифа', row.tariff_name);
  return 'Возврат оплаты';
}

type Described = Pick<BalanceLine, 'kind' | 'title' | 'note'> & { amount: number };

/**
 * A ledger row in words (the balance history's lines, the «Основание» of the ledger's export). A hold is the line of its piece of work: what the work kept once it is
 * over (its release is not a line of its own), «returned» when it kept nothing, «reserved» while
 * it runs. Amounts stay in the wallet's units here.
 */
export function describeLedgerRow(row: BalanceLineRow): Described {
  switch (row.reason) {
    case 'subscription_grant':
      return { kind: 'purchase', amount: row.amount, title: row.ref_type === 'auto_charge' ? named('Продление тарифа', row.charge_name) : named('Покупка тарифа', row.tariff_name), note: null };
    case 'trial_grant':
      return { kind: 'purchase', amount: row.amount, title: named('Пробный период тарифа', row.tariff_name), note: null };
    case 'package':
      return { kind: 'purchase', amount: row.amount, title: named('Покупка пакета', row.tariff_name), note: null };
    case 'welcome_gift':
      return { kind: 'gift', amount: row.amount, title: 'Подарок за подписку на канал', note: null };
    case 'promo_code':
      return { kind: 'gift', amount: row.amount, title: `Промокод ${row.note ?? ''}`.trim(), note: null };
    case 'referral_bonus':
      return row.amount > 0
        ? { kind: 'gift', amount: row.amount, title: 'Бонус за приглашённого', note: 'Приглашённый по вашей ссылке оплатил тариф или пакет' }
        : { kind: 'refund', amount: row.amount, title: 'Бонус за приглашённого отменён', note: row.note };
    case 'admin_adjustment':
      return { kind: 'adjustment', amount: row.amount, title: row.amount > 0 ? 'Начислено сервисом' : 'Списано сервисом', note: row.note };
    case 'refund':
      return {
        kind: 'refund',
        amount: row.amount,
        title: refundTitle(row),
        // What a refund could not take from the balance it took from work under way, when that work ended.
        note: row.idempotency_key.startsWith('clawback:') ? 'Из токенов, которые были в работе, когда оплату вернули' : null,
      };
    case 'generation_hold': {
      const title = workTitle(row);
      if (row.hold_status === 'held') return { kind: 'reserved', amount: row.amount, title, note: 'Идёт работа: токены зарезервированы, неиспользованные вернутся' };
      const spent = row.hold_spent ?? 0;
      if (row.hold_status === 'released' || spent === 0) return { kind: 'returned', amount: 0, title, note: 'Ничего не списано: токены вернулись' };
      return { kind: 'spent', amount: -spent, title, note: null };
    }
    case 'generation_release':
      // Not a line of the history (its hold's line says what came back), but a row of the ledger's export.
      return { kind: 'returned', amount: row.amount, title: workTitle(row), note: 'Возврат неиспользованного резерва' };
  }
}

/** A ledger row as a line of the history: media tokens with one decimal (seed §9). */
function toLine(row: BalanceLineRow): BalanceLine {
  const described = describeLedgerRow(row);
  return { id: row.id, created_at: row.created_at.toISOString(), wallet: row.kind, ...described, amount: row.kind === 'media' ? mediaToWire(described.amount) : described.amount };
}

/** The user's balance history, newest first, 20 lines a page (`last_page` at least 1). */
export async function balanceHistory(ctx: AppContext, userId: number, page: number): Promise<{ data: BalanceLine[]; last_page: number }> {
  const size = BALANCE_HISTORY_PAGE_SIZE;
  const total = await countBalanceLines(ctx.db, userId);
  const lastPage = Math.max(1, Math.ceil(total / size));
  const rows = page <= lastPage ? await balanceLinesPage(ctx.db, userId, (page - 1) * size, size) : [];
  return { data: rows.map(toLine), last_page: lastPage };
}
