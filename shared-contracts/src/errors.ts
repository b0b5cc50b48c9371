import { CLIENT_ERRORS, UNKNOWN_ERROR_MESSAGE } from './client-errors.ts';

/**
 * One registry of error codes: HTTP status and the Russian message a user sees.
 * The server throws `AppError(code)`; widgets show `text` from the envelope.
 */
export const ERROR_CODES = {
  VALIDATION: { status: 400, message: 'Проверьте правильность заполнения полей' },
  BAD_REQUEST: { status: 400, message: 'Некорректный запрос' },
  UNAUTHENTICATED: { status: 401, message: 'Войдите в аккаунт, чтобы продолжить' },
  INVALID_SIGNATURE: { status: 401, message: 'Неверная подпись уведомления' },
  INVALID_CREDENTIALS: { status: 422, message: 'Неверный email или пароль' },
  INSUFFICIENT_TOKENS: { status: 402, message: 'Недостаточно токенов' },
  FORBIDDEN: { status: 403, message: 'Недостаточно прав' },
  ACCOUNT_BLOCKED: { status: 403, message: 'Аккаунт заблокирован. Обратитесь в поддержку' },
  EMAIL_NOT_CONFIRMED: { status: 403, message: 'Подтвердите почту, чтобы продолжить' },
  PASSWORD_CHANGE_REQUIRED: { status: 403, message: 'Сначала смените временный пароль на свой' },
  SECOND_FACTOR_SETUP_REQUIRED: { status: 403, message: 'Сначала подключите вход с кодом из приложения: без него админка не откроется' },
  SECOND_FACTOR_REQUIRED: { status: 401, message: 'Введите код из приложения-аутентификатора' },
  SECOND_FACTOR_INVALID: { status: 422, message: 'Неверный код' },
  SECOND_FACTOR_REUSED: { status: 422, message: 'Этот код уже использован. Дождитесь следующего кода в приложении' },
  SECOND_FACTOR_ALREADY: { status: 409, message: 'Вход с кодом из приложения уже подключён' },
  WRONG_PASSWORD: { status: 422, message: 'Неверный текущий пароль' },
  NOT_FOUND: { status: 404, message: 'Не найдено' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Метод не поддерживается' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Слишком большой запрос' },
  FILE_TOO_LARGE: { status: 413, message: 'Файл слишком большой' },
  FILE_TYPE_NOT_ALLOWED: { status: 415, message: 'Этот формат файла не подходит' },
  TOO_MANY_FILES: { status: 400, message: 'Слишком много файлов' },
  UPLOAD_INCOMPLETE: { status: 400, message: 'Файл загрузился не полностью. Попробуйте ещё раз' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Неподдерживаемый формат запроса' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'Запрошенная часть файла недоступна' },
  CSRF_MISMATCH: { status: 419, message: 'Сессия устарела. Обновите страницу и попробуйте снова' },
  EMAIL_TAKEN: { status: 422, message: 'Этот email уже зарегистрирован' },
  EMAIL_ALREADY_CONFIRMED: { status: 422, message: 'Почта уже подтверждена' },
  CODE_INVALID: { status: 422, message: 'Неверный код' },
  CODE_EXPIRED: { status: 422, message: 'Срок действия кода истёк. Запросите новый код' },
  CODE_ATTEMPTS_EXCEEDED: { status: 422, message: 'Слишком много неверных попыток. Запросите новый код' },
  RESEND_TOO_SOON: { status: 429, message: 'Новый код можно запросить через минуту' },
  RESET_TOKEN_INVALID: { status: 422, message: CLIENT_ERRORS.RESET_TOKEN_INVALID },
  TARIFF_NOT_FOUND: { status: 404, message: 'Тариф не найден' },
  TARIFF_NOT_AVAILABLE: { status: 422, message: 'Этот тариф недоступен' },
  SUBSCRIPTION_REQUIRED: { status: 422, message: CLIENT_ERRORS.SUBSCRIPTION_REQUIRED },
  SUBSCRIPTION_NOT_FOUND: { status: 422, message: 'У вас нет активной подписки' },
  SUBSCRIPTION_ALREADY_ACTIVE: { status: 422, message: 'Этот тариф уже подключён' },
  SUBSCRIPTION_CANCELLED: { status: 422, message: CLIENT_ERRORS.SUBSCRIPTION_CANCELLED },
  PAYMENT_PROVIDER_ERROR: { status: 502, message: 'Платёжный сервис недоступен. Попробуйте позже' },
  TELEGRAM_NOT_LINKED: { status: 422, message: 'Сначала откройте нашего бота в Telegram' },
  TELEGRAM_NOT_MEMBER: { status: 422, message: 'Вы ещё не подписаны на канал' },
  TELEGRAM_UNAVAILABLE: { status: 503, message: 'Не удалось проверить подписку. Попробуйте позже' },
  GIFT_ALREADY_CLAIMED: { status: 422, message: 'Подарок уже получен' },
  AI_REQUEST_FAILED: { status: 502, message: 'Ошибка при выполнении запроса' },
  CHAT_BUSY: { status: 409, message: 'Дождитесь окончания ответа в этом чате' },
  CHAT_NOT_LAST: { status: 409, message: 'Изменить можно только последнее сообщение чата: обновите страницу' },
  CHAT_EMPTY: { status: 422, message: 'В этом чате пока нечего пересказывать: сначала задайте вопрос и дождитесь ответа' },
  ANSWERS_BUSY: { status: 429, message: 'Дождитесь окончания ответов в других чатах: одновременно пишется не больше 3' },
  GENERATIONS_BUSY: { status: 429, message: 'Дождитесь окончания текущих генераций: одновременно можно запустить не больше 10' },
  GENERATION_NOT_CANCELLABLE: { status: 409, message: 'Эту генерацию уже не отменить' },
  LAST_ADMIN: { status: 409, message: 'Нельзя снять права с последнего администратора' },
  SELF_BLOCK: { status: 409, message: 'Нельзя заблокировать самого себя' },
  BALANCE_TOO_LOW: { status: 409, message: 'Нельзя списать больше, чем есть на балансе' },
  PROMO_NOT_FOUND: { status: 422, message: 'Такого промокода нет. Проверьте, правильно ли он введён' },
  PROMO_NOT_STARTED: { status: 422, message: 'Этот промокод ещё не действует' },
  PROMO_EXPIRED: { status: 422, message: 'Срок действия промокода истёк' },
  PROMO_DISABLED: { status: 422, message: 'Этот промокод больше не действует' },
  PROMO_USED_UP: { status: 422, message: 'Промокод закончился: его уже использовали максимальное число раз' },
  PROMO_ALREADY_USED: { status: 422, message: 'Вы уже использовали этот промокод' },
  PROMO_NEW_USERS_ONLY: { status: 422, message: 'Этот промокод только для новых пользователей: у вас уже были оплаты' },
  PROMO_OTHER_PLAN: { status: 422, message: 'Этот промокод действует на другой тариф' },
  PROMO_NOT_DISCOUNT: { status: 422, message: 'Этот промокод начисляет токены: введите его на странице баланса' },
  PROMO_NOT_FOR_PACKAGES: { status: 422, message: 'Скидка по промокоду действует только на первую оплату тарифа, не на пакеты' },
  RATE_LIMITED: { status: 429, message: 'Слишком много попыток. Попробуйте позже' },
  SIGN_IN_CHECK_REQUIRED: { status: 429, message: CLIENT_ERRORS.SIGN_IN_CHECK_REQUIRED },
  STREAMS_LIMIT: { status: 429, message: 'Слишком много открытых потоков. Закройте лишние вкладки и попробуйте снова' },
  INTERNAL: { status: 500, message: 'Произошла ошибка' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Сервис временно недоступен' },
  IMAGES_BUSY: { status: 503, message: 'Сервер сейчас проверяет много изображений. Отправьте ещё раз через минуту' },
  IN_USE: { status: 409, message: 'Запись используется, удалить её нельзя' },
  REFUND_NOT_ALLOWED: { status: 409, message: 'Вернуть можно только оплаченный платёж' },
  REFUND_TOO_LARGE: { status: 409, message: 'Сумма больше, чем осталось вернуть' },
  SANDBOX_DISABLED: { status: 422, message: 'Тестовый режим отключён администратором' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The Russian plural form for `n`: `pluralRu(2, ['минуту', 'минуты', 'минут'])` → «минуты». */
export function pluralRu(n: number, forms: readonly [string, string, string]): string {
  const abs = Math.abs(n) % 100;
  const last = abs % 10;
  if (abs > 10 && abs < 20) return forms[2];
  if (last > 1 && last < 5) return forms[1];
  if (last === 1) return forms[0];
  return forms[2];
}

/** How long to wait, as said after «через»: «45 секунд», «1 минуту», «14 минут», «1 час» (rounded up). */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${String(s)} ${pluralRu(s, ['секунду', 'секунды', 'секунд'])}`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${String(minutes)} ${pluralRu(minutes, ['минуту', 'минуты', 'минут'])}`;
  const hours = Math.ceil(minutes / 60);
  return `${String(hours)} ${pluralRu(hours, ['час', 'часа', 'часов'])}`;
}

/** RATE_LIMITED's message when the wait is known: «Слишком много попыток. Попробуйте через 14 минут». */
export const rateLimitedText = (retryAfterSeconds: number) => `Слишком много попыток. Попробуйте через ${waitText(retryAfterSeconds)}`;

/**
 * RATE_LIMITED's message of the sign-in form, saying whose failures it counts: the address's (every
 * account tried from it) or the address's with this account. Other addresses are not refused.
 */
export const signInLimitedText = (scope: 'address' | 'account', retryAfterSeconds: number) =>
  scope === 'address'
    ? `Слишком много неудачных попыток входа с вашего адреса. Попробуйте через ${waitText(retryAfterSeconds)}`
    : `Слишком много неудачных попыток войти в этот аккаунт с вашего адреса. Попробуйте через ${waitText(retryAfterSeconds)} или восстановите пароль`;

/** RATE_LIMITED's message of the second factor's code, at sign-in or enrolment. */
export const codeLimitedText = (retryAfterSeconds: number) => `Слишком много неверных кодов. Попробуйте через ${waitText(retryAfterSeconds)}`;

export { CLIENT_ERRORS, UNKNOWN_ERROR_MESSAGE };
