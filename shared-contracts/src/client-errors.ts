/**
 * The registry's messages a widget shows on its own (before any call, or for a state it reads):
 * the browser gets these, not the whole registry. `errors.ts` takes them from here.
 */
export const CLIENT_ERRORS = {
  RESET_TOKEN_INVALID: 'Ссылка для сброса пароля недействительна или устарела',
  SIGN_IN_CHECK_REQUIRED: 'В этот аккаунт много раз пытались войти с неверным паролем, поэтому вход замедлен: браузер решает проверочную задачу, это займёт несколько секунд',
  SUBSCRIPTION_REQUIRED: 'Покупка пакетов доступна только при активной подписке',
  SUBSCRIPTION_CANCELLED: 'Подписка отменена: пополнение токенов недоступно до конца периода',
} as const;

/** The message shown when a reply has an unknown shape (seed §8). */
export const UNKNOWN_ERROR_MESSAGE = 'Произошла ошибка';
