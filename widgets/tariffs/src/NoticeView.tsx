import { Alert, Spinner, formatDate } from '@app/kit';
import { AFTER_PAYMENT_URL, type Notice } from './tariffs-state.ts';

/** What happened to a plan (a payment's outcome, a cancellation, why a button does nothing), in its card. */
export function NoticeView({ notice }: { notice: Notice }) {
  if (!notice) return null;
  const home = (
    <a className="tariffs__home" href={AFTER_PAYMENT_URL}>
      На главную
    </a>
  );
  switch (notice.kind) {
    case 'blocked':
      return <Alert tone="warning">{notice.text}</Alert>;
    case 'error':
      return <Alert>{notice.text}</Alert>;
    case 'declined':
      return <Alert>Оплата не прошла: {notice.reason}</Alert>;
    case 'confirming':
      return (
        <Alert tone="info">
          <span className="tariffs__confirming">
            <Spinner label="Ждём подтверждения" /> Оплата прошла. Ждём подтверждения от платёжной системы…
          </span>
        </Alert>
      );
    case 'paid':
      return (
        <Alert tone="success">
          {notice.purchase === 'plan' ? `Оплата прошла: тариф «${notice.name}» подключён.` : `Покупка завершена: токены пакета «${notice.name}» зачислены на баланс.`} {home}
        </Alert>
      );
    case 'late':
      return <Alert tone="warning">Оплата прошла, но подтверждение от платёжной системы ещё не пришло. Обновите страницу через минуту.</Alert>;
    case 'cancelled':
      return (
        <Alert tone="info">
          Подписка отменена. Тариф «{notice.name}» {notice.until ? `действует до ${formatDate(notice.until)}` : 'действует до конца оплаченного периода'}, продлеваться он не будет.
        </Alert>
      );
  }
}
