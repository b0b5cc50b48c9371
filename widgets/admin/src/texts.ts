import { formatDate, formatMedia, formatWords } from '@app/kit';

export const ROLE_LABELS: Record<string, string> = { user: 'Пользователь', admin: 'Администратор' };

export const STATUS_LABELS: Record<string, string> = {
  active: 'Активна',
  pending: 'Ожидает оплаты',
  past_due: 'Просрочена',
  cancelled: 'Отменена',
  expired: 'Истекла',
  replaced: 'Заменена',
  failed: 'Ошибка',
  paid: 'Оплачен',
  refunded: 'Возвращён',
  queued: 'В очереди',
  running: 'Выполняется',
  succeeded: 'Готово',
};

export const LEDGER_REASONS: Record<string, string> = {
  subscription_grant: 'Подписка',
  trial_grant: 'Пробный период',
  package: 'Пакет',
  welcome_gift: 'Подарок за подписку на канал',
  admin_adjustment: 'Корректировка администратором',
  generation_hold: 'Резерв на генерацию',
  generation_release: 'Возврат резерва',
  refund: 'Возврат платежа',
};

export const statusLabel = (s: string) => STATUS_LABELS[s] ?? s;
export const when = (iso: string) => formatDate(iso);
export const walletAmount = (kind: string, amount: number) => (kind === 'media' ? `${formatMedia(amount)} медиа` : `${formatWords(amount)} сл.`);
