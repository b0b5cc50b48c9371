import type { AdminPaymentDetail } from '@app/contracts/admin';
import { Alert, formatAmount } from '@app/kit';
import { paymentHref } from './list.ts';
import { At, Lines, RoutedLink, StatusBadge } from './ui.tsx';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** Where the automatic refund of a second charge stands, in staff's words. */
function refundState(p: AdminPaymentDetail): string {
  const refund = p.refunds.find((r) => r.cause === 'duplicate_payment');
  if (p.status === 'refunded') return 'Деньги вернулись на карту автоматически: CloudPayments подтвердил возврат.';
  if (refund?.status === 'failed') return 'CloudPayments отклонил автоматический возврат: верните деньги вручную формой ниже.';
  return 'Деньги возвращаются автоматически: ждём подтверждения CloudPayments.';
}

/**
 * The invoice paid twice, from either side: a second charge says what it is (it bought nothing,
 * no tokens) and where its automatic refund stands, linking the payment it repeated; that payment
 * lists its second charges.
 */
export function DuplicateCharges({ payment: p, navigate }: { payment: AdminPaymentDetail; navigate: Navigate }) {
  const money = (n: number) => formatAmount(n, p.currency);
  if (p.duplicate_of !== null) {
    return (
      <Alert tone={p.refunds.some((r) => r.cause === 'duplicate_payment' && r.status === 'failed') ? 'warning' : 'info'}>
        Повторная оплата счёта{' '}
        <RoutedLink href={paymentHref(p.duplicate_of)} navigate={navigate}>
          №{p.duplicate_of}
        </RoutedLink>
        : карта списана второй раз, платёж ничего не купил и токенов не начислял. {refundState(p)}
      </Alert>
    );
  }
  if (p.duplicates.length === 0) return null;
  return (
    <Lines title="Повторные оплаты" head={['Платёж', 'Когда', 'Сумма', 'Статус', 'Возвращено']} rows={p.duplicates} rowKey={(d) => d.id} empty="">
      {(d) => [
        <RoutedLink href={paymentHref(d.id)} navigate={navigate}>
          №{d.id}
        </RoutedLink>,
        <At iso={d.paid_at} />,
        money(d.amount),
        <StatusBadge status={d.status} label={d.status === 'refunded' ? 'Возвращён автоматически' : 'Возвращается автоматически'} />,
        d.refunded > 0 ? money(d.refunded) : '—',
      ]}
    </Lines>
  );
}
