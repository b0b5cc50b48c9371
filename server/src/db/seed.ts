import type { Logger } from 'pino';
import type { Db } from './database.ts';
import type { Storage } from '../storage/storage.ts';
import { DemoProvider } from '../providers/demo/demo.provider.ts';
import { storeFiles } from '../features/files/files.service.ts';

/** The seeded postcard's template: «Кому:» takes a name in any form («Бабушке Нине», «для мамы»). */
export const POSTCARD_TEMPLATE = 'Праздничная открытка к событию «{occasion}». Кому: {recipient}. Стиль: {style}';

const W = '[[words]]';
const M = '[[media]]';

/** Plans (seed §3 plus PRODUCT.md): monthly with trial (1), monthly (2) and one-off packages (3). */
export const SEED_TARIFFS = [
  {
    name: 'Старт',
    amount_kopecks: 49_000,
    first_amount_kopecks: 9_900,
    subscriptions_type: 1,
    popular: false,
    words: 100_000,
    media_tenths: 300,
    sort: 10,
    description: [`${W} 100 000 слов в месяц`, `${M} 30 медиа токенов в месяц`, 'Чат со всеми текстовыми моделями'],
  },
  {
    name: 'Про',
    amount_kopecks: 99_000,
    first_amount_kopecks: 14_900,
    subscriptions_type: 1,
    popular: true,
    words: 300_000,
    media_tenths: 1_000,
    sort: 20,
    description: [`${W} 300 000 слов в месяц`, `${M} 100 медиа токенов в месяц`, 'Генерация изображений и видео'],
  },
  {
    name: 'Бизнес',
    amount_kopecks: 249_000,
    first_amount_kopecks: null,
    subscriptions_type: 2,
    popular: false,
    words: 1_000_000,
    media_tenths: 3_000,
    sort: 30,
    description: [`${W} 1 000 000 слов в месяц`, `${M} 300 медиа токенов в месяц`, 'Все модели и приоритетная очередь'],
  },
  {
    name: 'Пакет слов',
    amount_kopecks: 29_000,
    first_amount_kopecks: null,
    subscriptions_type: 3,
    popular: false,
    words: 100_000,
    media_tenths: 0,
    sort: 40,
    description: [`${W} +100 000 слов`, 'Не сгорают, действуют вместе с подпиской'],
  },
  {
    name: 'Пакет медиа',
    amount_kopecks: 39_000,
    first_amount_kopecks: null,
    subscriptions_type: 3,
    popular: false,
    words: 0,
    media_tenths: 500,
    sort: 50,
    description: [`${M} +50 медиа токенов`, 'Для изображений и видео'],
  },
] as const;

export const SEED_CARDS = [
  { name: 'Чат с нейросетями', description: 'Задавайте вопросы, пишите тексты и код вместе с лучшими моделями.', icon: '/assets/icons/chat.svg', link: '/chat', sort: 10 },
  { name: 'Генерация изображений', description: 'Картинки по описанию, по образцу, по шаблону и с маской.', icon: '/assets/icons/image.svg', link: '/ai-products', sort: 20 },
  { name: 'Видео из текста', description: 'Короткие ролики по описанию или из вашей картинки.', icon: '/assets/icons/video.svg', link: '/ai-products?type=video', sort: 30 },
  { name: 'История генераций', description: 'Все ваши изображения и видео в одном месте.', icon: '/assets/icons/history.svg', link: '/ai-history', sort: 40 },
] as const;

const DEMO_CHAT_PARAMS = [
  { value: 'balanced', label: 'Сбалансированный', temperature: 0.7 },
  { value: 'creative', label: 'Творческий', temperature: 1.1 },
  { value: 'precise', label: 'Точный', temperature: 0.2 },
];

/**
 * The AI catalogue's start: the offline demo connection (labelled «Демо», works without keys)
 * with its chat models, and an OpenAI connection left off until OPENAI_API_KEY is set and an
 * admin turns it on. Answers how many connections and chat models it added.
 */
export async function seedAiCatalog(db: Db): Promise<{ connections: number; chatModels: number }> {
  return db.transaction().execute(async (tx) => {
    const demo = await tx.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
    const openai = await tx
      .insertInto('provider_connections')
      .values({ name: 'OpenAI', protocol: 'openai', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY', timeout_seconds: 60, active: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    const models = [
      {
        name: 'Демо-ассистент',
        kind: 'chat' as const,
        connection_id: demo.id,
        provider_model: 'demo',
        words_per_token: 1,
        max_output_tokens: 1024,
        setting: JSON.stringify({ model: { params: DEMO_CHAT_PARAMS } }),
        description: 'Офлайн-модель для знакомства с сервисом: отвечает по-русски, по шаблону.',
        sort: 10,
      },
      {
        name: 'Демо-ассистент Лайт',
        kind: 'chat' as const,
        connection_id: demo.id,
        provider_model: 'demo-lite',
        words_per_token: 0.5,
        max_output_tokens: 512,
        setting: JSON.stringify({ model: { params: [{ value: 'short', label: 'Кратко', temperature: 0.5 }] } }),
        description: 'Короткие ответы вдвое дешевле.',
        sort: 20,
      },
      {
        name: 'GPT-4o mini',
        kind: 'chat' as const,
        connection_id: openai.id,
        provider_model: 'gpt-4o-mini',
        words_per_token: 1,
        max_output_tokens: 4096,
        setting: JSON.stringify({ model: { params: DEMO_CHAT_PARAMS } }),
        description: 'Быстрая и недорогая модель OpenAI: понимает изображения.',
        sort: 30,
      },
    ];
    await tx.insertInto('ai_models').values(models).execute();
    return { connections: [demo, openai].length, chatModels: models.length };
  });
}

const withoutParams = <T extends { params: unknown }>({ params: _params, ...rest }: T): Omit<T, 'params'> => rest;

/**
 * A demo catalogue of generation products on the offline demo provider: every variant, in
 * three categories, with Russian names and descriptions, and the image, video and text models
 * they run on (prices in media tokens per image, per second of video, and words per token).
 * Answers how many categories, models and products it added.
 */
export async function seedGenerationCatalog(db: Db): Promise<{ categories: number; models: number; products: number }> {
  return db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('provider_connections').select('id').where('protocol', '=', 'demo').orderBy('id').executeTakeFirst();
    const demo = existing ?? (await tx.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow());
    const model = (values: { name: string; kind: 'image' | 'video' | 'text'; provider_model: string; media_price_tenths?: number; media_per_second_tenths?: number; max_output_tokens?: number; params: object[]; description: string; sort: number }) =>
      tx
        .insertInto('ai_models')
        .values({ ...withoutParams(values), connection_id: demo.id, setting: JSON.stringify({ model: { params: values.params } }) })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const image = await model({
      name: 'Демо-художник',
      kind: 'image',
      provider_model: 'demo-image',
      media_price_tenths: 10,
      params: [
        { value: 'square', label: 'Квадрат 1024×1024', provider: { size: '1024x1024' } },
        { value: 'portrait', label: 'Портрет 768×1024', provider: { size: '768x1024' } },
        { value: 'landscape', label: 'Пейзаж 1024×768', provider: { size: '1024x768' } },
      ],
      description: 'Офлайн-модель: рисует картинку по описанию, учитывает маску и пример.',
      sort: 40,
    });
    const video = await model({
      name: 'Демо-видео',
      kind: 'video',
      provider_model: 'demo-video',
      media_price_tenths: 20,
      media_per_second_tenths: 5,
      params: [
        { value: '4', label: '4 секунды', provider: { duration: 4 } },
        { value: '8', label: '8 секунд', provider: { duration: 8 } },
      ],
      description: 'Офлайн-модель: короткий ролик по описанию или из картинки.',
      sort: 50,
    });
    const text = await model({
      name: 'Демо-автор',
      kind: 'text',
      provider_model: 'demo',
      max_output_tokens: 800,
      params: [
        { value: 'balanced', label: 'Сбалансированный', temperature: 0.7 },
        { value: 'creative', label: 'Творческий', temperature: 1.1 },
      ],
      description: 'Офлайн-модель для текстовых продуктов.',
      sort: 60,
    });
    const category = (name: string, description: string, sort: number) =>
      tx
        .insertInto('ai_categories')
        .values({ name, description, sort })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const images = await category('Изображения', 'Картинки по описанию, по образцу, по шаблону и с маской.', 10);
    const videos = await category('Видео', 'Короткие ролики из текста или картинки.', 20);
    const texts = await category('Тексты', 'Готовые шаблоны: заполните поля — получите текст.', 30);
    const field = (name: string, label: string, placeholder: string, extra: object = {}) => ({ name, label, placeholder, ...extra });
    const products = [
      { category_id: images, variant: 'img' as const, name: 'Картинка по описанию', description: 'Опишите, что нарисовать, — модель создаст изображение.', model_id: image, sort: 10 },
      { category_id: images, variant: 'img_2' as const, name: 'По вашему образцу', description: 'Загрузите картинку-пример и опишите, что изменить.', model_id: image, sort: 20 },
      {
        category_id: images,
        variant: 'img_3' as const,
        name: 'Открытка к празднику',
        description: 'Заполните поля — получите готовую открытку.',
        prompt_template: POSTCARD_TEMPLATE,
        fields: JSON.stringify([field('occasion', 'Праздник', 'День рождения'), field('recipient', 'Кому', 'маме'), field('style', 'Стиль', 'акварель', { required: false })]),
        model_id: image,
        sort: 30,
      },
      { category_id: images, variant: 'img_4' as const, name: 'Фото в стиле примера', description: 'Загрузите фото — модель перерисует его в стиле примера продукта.', prompt_template: 'Перерисовать фото в стиле примера', model_id: image, sort: 40 },
      { category_id: images, variant: 'mask' as const, name: 'Заменить часть картинки', description: 'Закрасьте область кистью и опишите, что должно появиться на её месте.', model_id: image, sort: 50 },
      { category_id: videos, variant: 'video' as const, name: 'Видео по описанию', description: 'Короткий ролик по тексту или из вашей картинки.', model_id: video, sort: 10 },
      {
        category_id: texts,
        variant: 'text_1' as const,
        name: 'Пост для соцсетей',
        description: 'Тема и тон — и готовый пост с призывом к действию.',
        prompt_template: 'Напиши пост для соцсетей на тему «{topic}». Тон: {tone}. Добавь призыв к действию.',
        fields: JSON.stringify([field('topic', 'Тема', 'Открытие кофейни', { max_length: 200 }), field('tone', 'Тон', 'дружелюбный', { required: false, max_length: 50 })]),
        model_id: text,
        sort: 10,
      },
      {
        category_id: texts,
        variant: 'text_1' as const,
        name: 'Описание товара',
        description: 'Продающее описание для карточки маркетплейса.',
        prompt_template: 'Составь продающее описание товара «{product}». Особенности: {features}.',
        fields: JSON.stringify([field('product', 'Товар', 'Термокружка 450 мл'), field('features', 'Особенности', 'держит тепло 6 часов, не протекает', { multiline: true, max_length: 1000 })]),
        model_id: text,
        sort: 20,
      },
    ];
    await tx.insertInto('ai_products').values(products).execute();
    return { categories: [images, videos, texts].length, models: [image, video, text].length, products: products.length };
  });
}

/**
 * Example images of the products that have none, drawn by the demo provider from each product's
 * name and description and kept as the service's own files (no owner). Answers how many.
 */
export async function seedProductExamples(db: Db, storage: Storage): Promise<number> {
  const products = await db.selectFrom('ai_products').select(['id', 'name', 'description']).where('example_file_id', 'is', null).orderBy('id').execute();
  const demo = new DemoProvider({ imageStepDelayMs: 0 });
  for (const product of products) {
    const [image] = (await demo.generate({ model: 'demo-image', prompt: `${product.name}. ${product.description}`, n: 1, size: '512x512' })).images;
    if (!image) continue;
    await storeFiles(db, storage, async (tx, save) => {
      const file = await save({ ownerId: null, purpose: 'product_example', body: image.data, contentType: image.mime, originalName: `example-${String(product.id)}.png` });
      await tx.updateTable('ai_products').set({ example_file_id: file.id }).where('id', '=', product.id).execute();
    });
  }
  return products.length;
}

/** Inserts the seed's plans and packages, in order; answers their rows. */
export const insertSeedTariffs = (db: Db) =>
  db
    .insertInto('tariffs')
    .values(SEED_TARIFFS.map((t) => ({ ...t, description: JSON.stringify(t.description) })))
    .returningAll()
    .execute();

/**
 * Seed data (plans, packages, news cards, the AI catalogue); each kind is inserted only while its
 * table is empty. With a storage, products without an example image get one.
 */
export async function seed(db: Db, log: Logger, storage?: Storage): Promise<void> {
  const hasTariffs = await db.selectFrom('tariffs').select('id').limit(1).executeTakeFirst();
  if (!hasTariffs) {
    await insertSeedTariffs(db);
    log.info({ count: SEED_TARIFFS.length }, 'seeded plans and packages');
  }
  const hasCards = await db.selectFrom('dashboard_cards').select('id').limit(1).executeTakeFirst();
  if (!hasCards) {
    await db.insertInto('dashboard_cards').values([...SEED_CARDS]).execute();
    log.info({ count: SEED_CARDS.length }, 'seeded dashboard news cards');
  }
  const hasConnections = await db.selectFrom('provider_connections').select('id').limit(1).executeTakeFirst();
  if (!hasConnections) log.info(await seedAiCatalog(db), 'seeded the provider connections and the chat models');
  const hasCategories = await db.selectFrom('ai_categories').select('id').limit(1).executeTakeFirst();
  if (!hasCategories) log.info(await seedGenerationCatalog(db), 'seeded the generation catalogue (its image, video and text models, categories and products)');
  if (storage) {
    const examples = await seedProductExamples(db, storage);
    if (examples) log.info({ examples }, 'drew example images of the products');
  }
}

/** On an empty embedded database (no users yet) the seed runs by itself. */
export async function seedIfEmpty(db: Db, log: Logger, storage?: Storage): Promise<void> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (!anyUser) await seed(db, log, storage);
}
