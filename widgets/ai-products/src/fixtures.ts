import type { SubscribeCheck, User } from '@app/contracts/browser';
import { GENERATION_FAILURES, GENERATION_TEXTS, VARIANT_INPUTS, type CatalogCategory, type CatalogProduct, type Generation, type ProductDetail, type ProductPrice, type ProductVariant } from '@app/contracts/generation';

/** A small picture (a gradient) for examples and results in stories and tests. */
export const PICTURE_URL =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5b5bd6"/><stop offset="1" stop-color="#d6336c"/></linearGradient></defs><rect width="640" height="480" fill="url(#g)"/><circle cx="420" cy="170" r="70" fill="#ffd166"/></svg>');

const media = (amount: number): ProductPrice => ({ wallet: 'media', amount, up_to: false });
const words = (amount: number): ProductPrice => ({ wallet: 'words', amount, up_to: true });

const product = (id: number, category_id: number, variant: ProductVariant, name: string, description: string, price = media(1)): CatalogProduct => ({
  id,
  category_id,
  variant,
  name,
  description,
  example_url: PICTURE_URL,
  model: variant === 'video' ? 'Демо-видео' : variant === 'text_1' ? 'Демо-автор' : 'Демо-художник',
  provider: 'Демо',
  price,
});

export const PRODUCTS: Record<ProductVariant, CatalogProduct> = {
  img: product(1, 1, 'img', 'Картинка по описанию', 'Опишите, что нарисовать, — модель создаст изображение.'),
  img_2: product(2, 1, 'img_2', 'По вашему образцу', 'Загрузите картинку-пример и опишите, что изменить.'),
  img_3: product(3, 1, 'img_3', 'Открытка к празднику', 'Заполните поля — получите готовую открытку.'),
  img_4: product(4, 1, 'img_4', 'Фото в стиле примера', 'Загрузите фото — модель перерисует его в стиле примера продукта.'),
  mask: product(5, 1, 'mask', 'Заменить часть картинки', 'Закрасьте область кистью и опишите, что должно появиться на её месте.'),
  video: product(6, 2, 'video', 'Видео по описанию', 'Короткий ролик по тексту или из вашей картинки.', media(4)),
  text_1: product(7, 3, 'text_1', 'Пост для соцсетей', 'Тема и тон — и готовый пост с призывом к действию.', words(844)),
};

export const CATEGORIES: CatalogCategory[] = [
  { id: 1, name: 'Изображения', description: 'Картинки по описанию, по образцу, по шаблону и с маской.', products: [PRODUCTS.img, PRODUCTS.img_2, PRODUCTS.img_3, PRODUCTS.img_4, PRODUCTS.mask] },
  { id: 2, name: 'Видео', description: 'Короткие ролики из текста или картинки.', products: [PRODUCTS.video] },
  { id: 3, name: 'Тексты', description: 'Готовые шаблоны: заполните поля — получите текст.', products: [PRODUCTS.text_1] },
];


const IMAGE_PARAMS = [
  { value: 'square', label: 'Квадрат 1024×1024', price: media(1) },
  { value: 'portrait', label: 'Портрет 768×1024', price: media(1) },
  { value: 'landscape', label: 'Пейзаж 1024×768', price: media(1.5) },
];

/** One product as its screen gets it. */
export function detail(variant: ProductVariant): ProductDetail {
  const base = PRODUCTS[variant];
  const category = CATEGORIES.find((c) => c.id === base.category_id)?.name ?? '';
  const fields =
    variant === 'img_3'
      ? [
          { name: 'occasion', label: 'Праздник', placeholder: 'День рождения', multiline: false, required: true, max_length: 500 },
          { name: 'recipient', label: 'Кому', placeholder: 'маме', multiline: false, required: true, max_length: 500 },
          { name: 'style', label: 'Стиль', placeholder: 'акварель', multiline: false, required: false, max_length: 500 },
        ]
      : variant === 'text_1'
        ? [
            { name: 'topic', label: 'Тема', placeholder: 'Открытие кофейни', multiline: false, required: true, max_length: 200 },
            { name: 'tone', label: 'Тон', placeholder: 'дружелюбный', multiline: true, required: false, max_length: 50 },
          ]
        : [];
  const params =
    variant === 'video'
      ? [
          { value: '4', label: '4 секунды', price: media(4) },
          { value: '8', label: '8 секунд', price: media(6) },
        ]
      : variant === 'text_1'
        ? [
            { value: 'balanced', label: 'Сбалансированный', price: words(844) },
            { value: 'creative', label: 'Творческий', price: words(844) },
          ]
        : IMAGE_PARAMS;
  return { ...base, category, fields, params, inputs: VARIANT_INPUTS[variant] };
}

export const USER: User = { id: 7, email: 'anna@example.ru', email_confirmed: true, role: 'user', balances: { words: 12_500, media: 24.5 }, resend_in: 0 };

const at = (minutes: number) => new Date(Date.UTC(2025, 4, 20, 12, 0) - minutes * 60_000).toISOString();

/** A run of the `img` product in each of its states. */
export function run(over: Partial<Generation> = {}): Generation {
  return {
    id: 101,
    product_id: 1,
    product: 'Картинка по описанию',
    variant: 'img',
    model: 'Демо-художник',
    status: 'queued',
    progress: 0,
    prompt: 'Рыжий кот в очках читает газету',
    cost: { wallet: 'media', amount: 1 },
    refunded: false,
    error: null,
    outputs: [],
    text: null,
    created_at: at(1),
    finished_at: null,
    ...over,
  };
}

export const SUCCEEDED = run({ status: 'succeeded', progress: 100, outputs: [{ id: 9, url: PICTURE_URL, download_url: PICTURE_URL, kind: 'image', mime: 'image/png' }], finished_at: at(0) });
export const FAILED = run({ status: 'failed', progress: 40, refunded: true, error: `${GENERATION_FAILURES.timeout}. ${GENERATION_TEXTS.refunded}`, finished_at: at(0) });
export const REFUSED = run({ status: 'failed', progress: 0, refunded: true, error: `${GENERATION_FAILURES.contentPolicy}. ${GENERATION_TEXTS.refunded}`, finished_at: at(0) });
export const TEXT_DONE = run({
  variant: 'text_1',
  product: 'Пост для соцсетей',
  model: 'Демо-автор',
  status: 'succeeded',
  progress: 100,
  cost: { wallet: 'words', amount: 212 },
  // Markdown, as text models answer.
  text: '**Мы открываемся!** ☕\n\nНовая кофейня у метро ждёт вас _с понедельника_:\n\n- свежая обжарка;\n- домашняя выпечка;\n- уютные столики у окна.\n\nПриходите на открытие — первая чашка за наш счёт!',
  finished_at: at(0),
});

/** `GET /api/new/subscribe/check` of a user on a plan (packages can be bought), without one, and with a cancelled one. */
export const PLAN_CHECK: SubscribeCheck = { subscriptions: 2, first: false, card: null, cancelled: false, active_until: '2025-06-15T12:00:00Z', trial: false, past_due: false, next_charge_at: '2025-06-15T12:00:00Z', next_charge_amount: 990 };
export const NO_PLAN_CHECK: SubscribeCheck = { ...PLAN_CHECK, subscriptions: null, first: true, active_until: null, next_charge_at: null, next_charge_amount: null };
export const CANCELLED_CHECK: SubscribeCheck = { ...PLAN_CHECK, cancelled: true, next_charge_at: null, next_charge_amount: null };
