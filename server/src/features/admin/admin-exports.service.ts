import { Readable } from 'node:stream';
import type { ExportQuery } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { CSV_BOM, csvFixed, csvInteger, csvLine, csvText } from '../../lib/csv.ts';
import type { LedgerReason } from '../wallet/wallet.table.ts';
import { describeLedgerRow } from '../wallet/balance-history.service.ts';
import { ledgerBatch, paymentsBatch, type Cursor, type LedgerExportRow, type PaymentExportRow } from './admin-exports.queries.ts';

/** Rows read at a time: a period of any length streams in batches of this many. */
export const EXPORT_BATCH = 1000;

const LEDGER_REASONS: Record<LedgerReason, string> = {
  subscription_grant: 'Подписка',
  trial_grant: 'Пробный период',
  package: 'Пакет',
  welcome_gift: 'Подарок за подписку на канал',
  admin_adjustment: 'Корректировка администратором',
  generation_hold: 'Резерв на генерацию или ответ',
  generation_release: 'Возврат резерва',
  refund: 'Возврат платежа',
  promo_code: 'Промокод',
  referral_bonus: 'Бонус за приглашённого',
};

/** The record a ledger row refers to, for the accountant to find it: `платёж №15` (the payments export's «Платёж №»). */
function reference(row: Pick<LedgerExportRow, 'ref_type' | 'ref_id'>): string | null {
  const id = String(row.ref_id ?? '');
  switch (row.ref_type) {
    case 'invoice':
    case 'invoice_refund':
      return `платёж №${id}`;
    case 'auto_charge':
    case 'auto_charge_refund':
      return `продление №${id}`;
    case 'generation':
      return `генерация №${id}`;
    case 'chat_message':
      return `ответ №${id}`;
    case 'chat_summary':
      return `краткое содержание, ответ №${id}`;
    case 'admin':
      return `администратор №${id}`;
    case 'telegram':
      return `Telegram ${id}`;
    default:
      return null;
  }
}

/** What a ledger row was, in the balance history's words, with the record it refers to: «Ответ в чате «Рецепт борща» (ответ №2)». */
function ledgerCause(row: LedgerExportRow): string {
  const ref = row.ref_id === null ? null : reference(row);
  const { title } = describeLedgerRow(row);
  return ref ? `${title} (${ref})` : title;
}

const LEDGER_HEAD = ['Дата и время (МСК)', '№ записи', 'Пользователь', 'ID пользователя', 'Кошелёк', 'Сумма', 'Причина', 'Примечание', 'Основание'];

/** A ledger row as a line: words whole, media with one decimal (stored in tenths). */
export const ledgerLine = (r: LedgerExportRow): string =>
  csvLine([
    csvText(r.moscow),
    csvInteger(r.id),
    csvText(r.email),
    csvInteger(r.user_id),
    r.kind === 'media' ? 'медиа' : 'слова',
    r.kind === 'media' ? csvFixed(r.amount, 1) : csvInteger(r.amount),
    csvText(LEDGER_REASONS[r.reason]),
    csvText(r.note),
    csvText(ledgerCause(r)),
  ]);

const OPERATIONS: Record<PaymentExportRow['op'], string> = { payment: 'Оплата', renewal: 'Продление подписки', refund: 'Возврат' };
const KINDS: Record<string, string> = { subscription: 'Подписка', package: 'Пакет' };
const STATUSES: Record<string, string> = { paid: 'Оплачен', refunded: 'Возвращён', pending: 'Ожидает оплаты', failed: 'Не прошёл' };
const REFUND_STATUSES: Record<string, string> = { requested: 'Ждёт подтверждения', done: 'Проведён', failed: 'Отклонён' };

const PAYMENTS_HEAD = ['Дата и время (МСК)', 'Операция', '№ операции', 'Платёж №', 'Продление №', 'Подписка №', 'Пользователь', 'Тариф', 'Вид', 'Сумма, ₽', 'Статус', 'Транзакция CloudPayments', 'Причина возврата'];

/** An operation as a line: roubles with kopecks, a refund negative. */
export const paymentLine = (r: PaymentExportRow): string =>
  csvLine([
    csvText(r.moscow),
    csvText(OPERATIONS[r.op]),
    csvInteger(r.id),
    csvInteger(r.invoice_id),
    csvInteger(r.charge_id),
    csvInteger(r.subscription_id),
    csvText(r.email),
    csvText(r.tariff),
    csvText(r.kind === null ? null : (KINDS[r.kind] ?? r.kind)),
    csvFixed(r.kopecks, 2),
    csvText((r.op === 'refund' ? REFUND_STATUSES[r.status] : STATUSES[r.status]) ?? r.status),
    csvInteger(r.transaction_id),
    csvText(r.reason),
  ]);

interface ExportSpec<R> {
  head: readonly string[];
  batch: (tx: Tx, period: ExportQuery, after: Cursor | null, limit: number) => Promise<R[]>;
  line: (row: R) => string;
  cursor: (row: R) => Cursor;
}

const LEDGER: ExportSpec<LedgerExportRow> = { head: LEDGER_HEAD, batch: ledgerBatch, line: ledgerLine, cursor: (r) => ({ at: r.cursor_at, id: r.id }) };
const PAYMENTS: ExportSpec<PaymentExportRow> = { head: PAYMENTS_HEAD, batch: paymentsBatch, line: paymentLine, cursor: (r) => ({ at: r.cursor_at, id: r.id, order: r.op_order }) };

/** The lines of an export, batch after batch, read in `tx`; `end` commits or, unless done, rolls it back. */
async function* lines<R>(tx: Tx, spec: ExportSpec<R>, period: ExportQuery, batchSize: number, end: (commit: boolean) => Promise<void>): AsyncGenerator<string> {
  try {
    yield CSV_BOM + csvLine(spec.head.map(csvText));
    let after: Cursor | null = null;
    for (;;) {
      const rows = await spec.batch(tx, period, after, batchSize);
      if (rows.length > 0) yield rows.map(spec.line).join('');
      const last = rows[rows.length - 1];
      if (!last || rows.length < batchSize) break;
      after = spec.cursor(last);
    }
    await end(true);
  } finally {
    await end(false);
  }
}

export interface CsvExport {
  fileName: string;
  body: Readable;
}

/**
 * Opens the export of a period in one read-only snapshot (a database that does not answer fails
 * here, before anything is sent); its rows stream as the client reads them. The snapshot ends
 * with the stream: committed once read to the end, rolled back when the client goes away, even
 * before the first line.
 */
export async function openExport(ctx: AppContext, which: 'ledger' | 'payments', period: ExportQuery, batchSize = EXPORT_BATCH): Promise<CsvExport> {
  const tx = await ctx.db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  let ended = false;
  const end = async (commit: boolean) => {
    if (ended) return;
    ended = true;
    await (commit ? tx.commit() : tx.rollback()).execute();
  };
  const body = which === 'ledger' ? Readable.from(lines(tx, LEDGER, period, batchSize, end)) : Readable.from(lines(tx, PAYMENTS, period, batchSize, end));
  body.once('close', () => {
    end(false).catch((err: unknown) => ctx.log.warn({ err }, 'csv export: the snapshot did not end cleanly'));
  });
  return { fileName: `${which}_${period.from}_${period.to}.csv`, body };
}
