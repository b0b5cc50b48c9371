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
  { name: 'Чат с нейросетями', description: 'Задавайте вопросы, пишите тексты и код вместе с лучшими моделями.', icon: '/assets/icons/chat.svg', link: '/ai-products', sort: 10 },
  { name: 'Генерация изображений', description: 'Картинки по описанию, по образцу, по шаблону и с маской.', icon: '/assets/icons/image.svg', link: '/ai-products', sort: 20 },
  { name: 'Видео из текста', description: 'Короткие ролики по описанию или из вашей картинки.', icon: '/assets/icons/video.svg', link: '/ai-products?type=video', sort: 30 },
  { name: 'История генераций', description: 'Все ваши изображения и видео в одном месте.', icon: '/assets/icons/history.svg', link: '/ai-history', sort: 40 },
] as const;

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
}

/** On an empty embedded database (no users yet) the seed runs by itself. */
export async function seedIfEmpty(db: Db, log: Logger): Promise<void> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (!anyUser) await seed(db, log);
}
