import { MODEL_KIND_LABELS, type ModelKindName, type ProviderProtocolName } from '@app/contracts/admin';
import { SUBSCRIPTION_TYPES } from '@app/contracts/browser';
import type { ProductVariant } from '@app/contracts/generation';
import { formatDate, formatMedia, formatRub, formatWords } from '@app/kit';
import { PROTOCOL_LABELS, VARIANT_LABELS } from './ai/texts.ts';
import { tariffTypeShort } from './billing/texts.ts';
import { ROLE_LABELS } from './texts.ts';

/*
 * The audit log in staff's words: what was done, to what, and each field's value before and
 * after, formatted as the panel shows it elsewhere (roubles, media with one decimal, «да/нет»,
 * dates in ru-RU). A code the panel does not know yet (a future action, entity or field) still
 * reads as something a person understands.
 */

/** Records a change can concern: the name of one, and of one in the genitive («Изменение тарифа»). */
const ENTITIES: Record<string, { one: string; of: string; href?: (id: string) => string }> = {
  user: { one: 'Пользователь', of: 'пользователя', href: (id) => `/admin/users/${id}` },
  tariff: { one: 'Тариф', of: 'тарифа', href: (id) => `/admin/tariff/${id}` },
  payment: { one: 'Платёж', of: 'платежа', href: (id) => `/admin/payments?payment=${id}` },
  settings: { one: 'Настройки', of: 'настроек', href: () => '/admin/settings' },
  dashboard_card: { one: 'Карточка стартовой панели', of: 'карточки стартовой панели', href: (id) => `/admin/dashboard/${id}` },
  ai_product: { one: 'Продукт', of: 'продукта', href: (id) => `/admin/ai-products/${id}` },
  ai_category: { one: 'Категория', of: 'категории', href: (id) => `/admin/ai-categories/${id}` },
  ai_model: { one: 'Модель', of: 'модели', href: (id) => `/admin/ai-models/${id}` },
  provider: { one: 'Подключение к провайдеру', of: 'подключения к провайдеру', href: (id) => `/admin/providers/${id}` },
};

const VERBS: Record<string, string> = { create: 'Создание', update: 'Изменение', delete: 'Удаление', deactivate: 'Выключение' };

/** Actions whose words are not «verb + record». */
const ACTIONS: Record<string, string> = {
  'user.balance': 'Корректировка баланса',
  'payment.refund': 'Возврат платежа',
  'ai_product.example': 'Замена примера продукта',
  'user.second_factor_enrol': 'Подключение входа с кодом из приложения',
  'user.recovery_code': 'Вход по резервному коду',
  'user.second_factor_reset': 'Сброс входа с кодом из приложения',
};

/** Actions done by a command on the server (`npm run admin:reset-2fa`), not by a staff member: no actor. */
export const SERVER_ACTIONS: ReadonlySet<string> = new Set(['user.second_factor_reset']);

/** A code as words: `dashboard_card` → «dashboard card». */
const humanize = (code: string) => code.replace(/[_.]+/g, ' ').trim();

/** «Изменение тарифа»; an unknown verb or record keeps its code readable: «Изменение записи «coupon»», «Действие «coupon.refresh»». */
export function actionLabel(action: string): string {
  if (ACTIONS[action]) return ACTIONS[action];
  const at = action.lastIndexOf('.');
  const entity = at < 0 ? action : action.slice(0, at);
  const verb = VERBS[action.slice(at + 1)];
  if (at < 0 || !verb) return `Действие «${humanize(action)}»`;
  return `${verb} ${ENTITIES[entity]?.of ?? `записи «${humanize(entity)}»`}`;
}

/** «Тариф №3», «Настройки»; the record's screen where the panel has one. */
export function entityLabel(entity: string, id: string): { text: string; href: string | null } {
  const known = ENTITIES[entity];
  const numbered = /^\d+$/.test(id);
  const name = known?.one ?? `Запись «${humanize(entity)}»`;
  return { text: numbered ? `${name} №${id}` : entity === 'settings' ? name : `${name} «${id}»`, href: known?.href && (numbered || entity === 'settings') ? known.href(id) : null };
}

/** The values of one side of a change, for fields whose format depends on another (a balance on its wallet). */
type Side = Record<string, unknown>;
/** `names`: what the records the entry refers to are called now (`category_id:1` → «Фото»). */
type Format = (value: unknown, side: Side, names: Names) => string;
type Names = Readonly<Record<string, string>>;

const yesNo: Format = (v) => (v === true ? 'да' : v === false ? 'нет' : show(v));
const onOff: Format = (v) => (v === true ? 'включена' : v === false ? 'выключена' : show(v));
const rub: Format = (v) => (typeof v === 'number' ? formatRub(v) : show(v));
const media: Format = (v) => (typeof v === 'number' ? formatMedia(v) : show(v));
const tenths: Format = (v) => (typeof v === 'number' ? formatMedia(v / 10) : show(v));
const numbered: Format = (v) => (typeof v === 'number' || typeof v === 'string' ? `№${String(v)}` : 'нет');
/** A record referred to by its id: its name now with the number («Фото (№1)»), the number alone when it is gone. */
const named =
  (field: string): Format =>
  (v, side, names) => {
    const name = typeof v === 'number' ? names[`${field}:${String(v)}`] : undefined;
    return name === undefined ? numbered(v, side, names) : `${name} (№${String(v)})`;
  };
/** A file's size: «245 КБ», «1,5 МБ». */
const bytes: Format = (v) => {
  if (typeof v !== 'number') return show(v);
  if (v < 1024) return `${formatWords(v)} Б`;
  if (v < 1024 * 1024) return `${formatWords(Math.round(v / 1024))} КБ`;
  return `${(Math.round((v / 1024 / 1024) * 10) / 10).toLocaleString('ru-RU')} МБ`;
};
const wallet: Format = (v) => (v === 'words' ? 'слова' : v === 'media' ? 'медиа' : show(v));
/** A wallet's amount: `1 500 сл.`, `2,5 медиа` (the side says which wallet). */
const walletAmount =
  (signed: boolean): Format =>
  (v, side) => {
    if (typeof v !== 'number') return show(v);
    const sign = signed && v > 0 ? '+' : '';
    return side.wallet === 'media' ? `${sign}${formatMedia(v)} медиа` : `${sign}${formatWords(v)} сл.`;
  };
const labelled =
  (labels: Record<string, string>): Format =>
  (v) =>
    typeof v === 'string' && labels[v] ? labels[v] : show(v);
/** A list of names: a product's template fields, a model's parameter choices. */
const names =
  (key: string): Format =>
  (v) => {
    const list = Array.isArray(v) ? v : [];
    if (list.length === 0) return 'нет';
    return list.map((item: unknown) => (item && typeof item === 'object' ? show((item as Record<string, unknown>)[key]) : show(item))).join(', ');
  };
const params: Format = (v) => {
  const list = (v as { model?: { params?: unknown } } | null)?.model?.params;
  return names('label')(list, {}, {});
};

interface Field {
  label: string;
  format?: Format;
}

/** Fields every record may have. */
const COMMON: Record<string, Field> = {
  id: { label: 'ID' },
  name: { label: 'Название' },
  description: { label: 'Описание' },
  sort: { label: 'Порядок' },
  active: { label: 'Включено', format: yesNo },
  reason: { label: 'Причина' },
};

/** Each record's fields, in the order they read best. */
const FIELDS: Record<string, Record<string, Field>> = {
  user: {
    wallet: { label: 'Кошелёк', format: wallet },
    amount: { label: 'Сумма', format: walletAmount(true) },
    balance: { label: 'Баланс', format: walletAmount(false) },
    reason: { label: 'Причина' },
    role: { label: 'Роль', format: labelled(ROLE_LABELS) },
    blocked: { label: 'Заблокирован', format: yesNo },
    second_factor: { label: 'Вход с кодом из приложения', format: yesNo },
  },
  payment: {
    amount: { label: 'Сумма возврата', format: rub },
    reason: { label: 'Причина' },
    refund_id: { label: 'Возврат', format: numbered },
    refunded: { label: 'Уже возвращено', format: rub },
    refunding: { label: 'Возвращается', format: rub },
    refundable: { label: 'Можно вернуть', format: rub },
  },
  tariff: {
    name: { label: 'Название' },
    amount: { label: 'Цена', format: rub },
    first_amount: { label: 'Цена пробного периода', format: (v) => (v === null ? 'нет' : rub(v, {}, {})) },
    // A plan without a trial keeps a number of days that means nothing: said as no trial.
    trial_days: { label: 'Дней пробного периода', format: (v, side) => (side.subscriptions_type === SUBSCRIPTION_TYPES.monthlyTrial && side.first_amount !== null && Number(v) > 0 ? show(v) : 'без пробного периода') },
    subscriptions_type: { label: 'Тип', format: (v) => (typeof v === 'number' ? tariffTypeShort(v) : show(v)) },
    words: { label: 'Слов за период' },
    media: { label: 'Медиа токенов за период', format: media },
    description: { label: 'Строки описания', format: (v) => (Array.isArray(v) ? v.map(show).join(' / ') : show(v)) },
    popular: { label: 'Популярный', format: yesNo },
    currency_provider: { label: 'Валюта' },
    active: { label: 'В продаже', format: yesNo },
  },
  settings: {
    welcome_words: { label: 'Слов в подарок' },
    welcome_media: { label: 'Медиа токенов в подарок', format: media },
    referral_words: { label: 'Слов за приглашённого' },
    telegram_channel: { label: 'Канал Telegram' },
    support_url: { label: 'Ссылка поддержки' },
    sandbox_payments: { label: 'Песочница оплаты', format: onOff },
    sandbox_telegram: { label: 'Песочница Telegram', format: onOff },
  },
  dashboard_card: {
    link: { label: 'Ссылка' },
    icon: { label: 'Иконка' },
    active: { label: 'Показывается', format: yesNo },
  },
  ai_product: {
    variant: { label: 'Вариант', format: (v) => (typeof v === 'string' && v in VARIANT_LABELS ? VARIANT_LABELS[v as ProductVariant] : show(v)) },
    category_id: { label: 'Категория', format: named('category_id') },
    model_id: { label: 'Модель', format: named('model_id') },
    prompt_template: { label: 'Шаблон запроса' },
    fields: { label: 'Поля шаблона', format: names('name') },
    example_file_id: { label: 'Пример', format: (v) => (v === null || v === undefined ? 'нет' : `файл №${show(v)}`) },
    content_type: { label: 'Тип файла' },
    size: { label: 'Размер файла', format: bytes },
  },
  ai_model: {
    kind: { label: 'Тип', format: (v) => (typeof v === 'string' && v in MODEL_KIND_LABELS ? MODEL_KIND_LABELS[v as ModelKindName] : show(v)) },
    connection_id: { label: 'Подключение', format: named('connection_id') },
    provider_model: { label: 'Модель у провайдера' },
    words_per_token: { label: 'Слов за токен' },
    max_output_tokens: { label: 'Лимит ответа, токенов' },
    history_messages: { label: 'Сообщений истории в запросе', format: (v) => (v === null || v === undefined ? 'все (до 20)' : show(v)) },
    media_price_tenths: { label: 'Медиа токенов за изображение или ролик', format: tenths },
    media_per_second_tenths: { label: 'Медиа токенов за секунду видео', format: tenths },
    setting: { label: 'Варианты параметров', format: params },
  },
  provider: {
    protocol: { label: 'Протокол', format: (v) => (typeof v === 'string' && v in PROTOCOL_LABELS ? PROTOCOL_LABELS[v as ProviderProtocolName] : show(v)) },
    base_url: { label: 'Адрес API' },
    api_key_env: { label: 'Переменная ключа', format: (v) => (v === null ? 'нет' : show(v)) },
    timeout_seconds: { label: 'Тайм-аут, с' },
  },
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** A longer value is cut in the table (the whole of it is in the cell's title). */
export const MAX_VALUE_LENGTH = 160;

/** Any value as text: numbers grouped, booleans «да/нет», dates in ru-RU, nothing as «—», lists and objects compactly. */
export function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'number') return Number.isInteger(value) ? formatWords(value) : String(value).replace('.', ',');
  if (typeof value === 'string') return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? formatDate(value) : value;
  if (Array.isArray(value)) return value.length ? value.map(show).join(', ') : 'нет';
  return JSON.stringify(value);
}

/** One line of a change: a field with its value before and after, or only the value it has (`before` null). */
export interface ChangeLine {
  field: string;
  label: string;
  before: string | null;
  after: string;
}

const rank = (order: readonly string[], key: string) => {
  const at = order.indexOf(key);
  return at < 0 ? order.length : at;
};
const recordOf = (v: unknown): Side | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Side) : null);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a record of the log says, field by field: a created or deleted record lists its values;
 * a change lists the fields that changed as before → after, and the fields only one side has or
 * that name what changed (the wallet of a balance) as values. Known fields come in their order.
 */
export function changeLines(entity: string, before: unknown, after: unknown, names: Names = {}): ChangeLine[] {
  const b = recordOf(before);
  const a = recordOf(after);
  // A product's new example names the file it was uploaded as.
  const exampleFile = entity === 'ai_product' && a !== null && 'content_type' in a;
  const known: Record<string, Field> = { ...COMMON, ...FIELDS[entity], ...(exampleFile ? { name: { label: 'Файл' } } : {}) };
  const order = Object.keys(FIELDS[entity] ?? {});
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])].sort((x, y) => rank(order, x) - rank(order, y));
  const lines: ChangeLine[] = [];
  for (const key of keys) {
    const field = known[key] ?? { label: humanize(key) };
    const format = (value: unknown, side: Side) => (field.format ?? show)(value, side, names);
    if (b && a && key in b && key in a) {
      if (!same(b[key], a[key])) lines.push({ field: key, label: field.label, before: format(b[key], b), after: format(a[key], a) });
      else if (key === 'wallet') lines.push({ field: key, label: field.label, before: null, after: format(a[key], a) });
    } else if (a && key in a) lines.push({ field: key, label: field.label, before: null, after: format(a[key], a) });
    else if (b) lines.push({ field: key, label: field.label, before: null, after: format(b[key], b) });
  }
  return lines;
}

/** What kind of entry a record is: a new record, a deleted one, or a change. */
export const entryKind = (before: unknown, after: unknown): 'created' | 'deleted' | 'changed' => (before === null ? 'created' : after === null ? 'deleted' : 'changed');
