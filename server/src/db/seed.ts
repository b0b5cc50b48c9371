import type { Logger } from 'pino';
import type { Db } from './database.ts';

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
 * admin turns it on.
 */
export async function seedAiCatalog(db: Db): Promise<number> {
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
    return models.length;
  });
}

/** Inserts the seed's plans and packages, in order; answers their rows. */
export const insertSeedTariffs = (db: Db) =>
  db
    .insertInto('tariffs')
    .values(SEED_TARIFFS.map((t) => ({ ...t, description: JSON.stringify(t.description) })))
    .returningAll()
    .execute();

/** Seed data (plans, packages, news cards); each kind is inserted only while its table is empty. */
export async function seed(db: Db, log: Logger): Promise<void> {
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
  if (!hasConnections) log.info({ models: await seedAiCatalog(db) }, 'seeded the AI catalogue');
}

/** On an empty embedded database (no users yet) the seed runs by itself. */
export async function seedIfEmpty(db: Db, log: Logger): Promise<void> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (!anyUser) await seed(db, log);
}
