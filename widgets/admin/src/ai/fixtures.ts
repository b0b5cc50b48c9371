import type { AdminAiCategory, AdminAiModel, AdminAiProduct, AdminProvider } from '@app/contracts/admin';

const at = (days: number) => new Date(Date.UTC(2026, 10, 20, 12, 0) - days * 86_400_000).toISOString();
const stamps = (days: number) => ({ created_at: at(days), updated_at: at(days / 2) });

export const PROVIDERS: AdminProvider[] = [
  { id: 1, name: 'Демо', protocol: 'demo', base_url: null, api_key_env: null, key_set: false, timeout_seconds: 60, active: true, models: 5, ...stamps(30) },
  { id: 2, name: 'OpenAI', protocol: 'openai', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY', key_set: true, timeout_seconds: 60, active: true, models: 1, ...stamps(20) },
  { id: 3, name: 'Replicate', protocol: 'replicate', base_url: 'https://api.replicate.com/v1', api_key_env: 'REPLICATE_API_TOKEN', key_set: false, timeout_seconds: 300, active: false, models: 0, ...stamps(10) },
];

const demo = { connection_id: 1, connection: 'Демо', protocol: 'demo' as const };

export const MODELS: AdminAiModel[] = [
  {
    id: 4,
    name: 'Демо-художник',
    kind: 'image',
    ...demo,
    provider_model: 'demo-image',
    words_per_token: 1,
    media_price: 1,
    media_per_second: 0,
    max_output_tokens: 2048,
    history_messages: null,
    setting: {
      model: {
        params: [
          { value: 'square', label: 'Квадрат 1024×1024', provider: { size: '1024x1024' } },
          { value: 'pair', label: 'Два варианта', provider: { size: '1024x1024', n: 2 } },
        ],
      },
    },
    description: 'Офлайн-модель: рисует картинку по описанию.',
    sort: 40,
    active: true,
    products: 5,
    ...stamps(30),
  },
  {
    id: 5,
    name: 'Демо-видео',
    kind: 'video',
    ...demo,
    provider_model: 'demo-video',
    words_per_token: 1,
    media_price: 2,
    media_per_second: 0.5,
    max_output_tokens: 2048,
    history_messages: null,
    setting: { model: { params: [{ value: '4', label: '4 секунды', provider: { duration: 4 } }] } },
    description: 'Офлайн-модель: короткий ролик.',
    sort: 50,
    active: true,
    products: 1,
    ...stamps(30),
  },
  {
    id: 6,
    name: 'Демо-автор',
    kind: 'text',
    ...demo,
    provider_model: 'demo',
    words_per_token: 1.5,
    media_price: 0,
    media_per_second: 0,
    max_output_tokens: 800,
    history_messages: null,
    setting: {
      model: {
        params: [
          { value: 'balanced', label: 'Сбалансированный', temperature: 0.7 },
          { value: 'short', label: 'Коротко', temperature: 0.5, max_output_tokens: 200 },
        ],
      },
    },
    description: 'Офлайн-модель для текстовых продуктов.',
    sort: 60,
    active: true,
    products: 2,
    ...stamps(30),
  },
  {
    id: 3,
    name: 'GPT-4o mini',
    kind: 'chat',
    connection_id: 2,
    connection: 'OpenAI',
    protocol: 'openai',
    provider_model: 'gpt-4o-mini',
    words_per_token: 1,
    media_price: 0,
    media_per_second: 0,
    max_output_tokens: 4096,
    history_messages: null,
    setting: { model: { params: [] } },
    description: '',
    sort: 30,
    active: false,
    products: 0,
    ...stamps(20),
  },
];

export const CATEGORIES: AdminAiCategory[] = [
  { id: 1, name: 'Изображения', description: 'Картинки по описанию, по образцу, по шаблону и с маской.', sort: 10, active: true, products: 5, ...stamps(30) },
  { id: 2, name: 'Видео', description: 'Короткие ролики из текста или картинки.', sort: 20, active: true, products: 1, ...stamps(30) },
  { id: 3, name: 'Тексты', description: 'Готовые шаблоны: заполните поля — получите текст.', sort: 30, active: true, products: 2, ...stamps(30) },
  { id: 4, name: 'Архив', description: '', sort: 100, active: false, products: 0, ...stamps(5) },
];

/** A small example picture (an SVG data address: stories and tests load nothing). */
export const EXAMPLE_URL = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#2878c8"/><circle cx="32" cy="32" r="18" fill="#f5c542"/></svg>')}`;

const image = { model_id: 4, model: 'Демо-художник', model_kind: 'image' as const, category_id: 1, category: 'Изображения', connection: 'Демо', price: { wallet: 'media' as const, amount: 1, up_to: false }, hidden_because: null };

export const PRODUCTS: AdminAiProduct[] = [
  { id: 1, ...image, variant: 'img', name: 'Картинка по описанию', description: 'Опишите, что нарисовать, — модель создаст изображение.', prompt_template: '', fields: [], example_url: EXAMPLE_URL, sort: 10, active: true, ...stamps(30) },
  {
    id: 3,
    ...image,
    variant: 'img_3',
    name: 'Открытка к празднику',
    description: 'Заполните поля — получите готовую открытку.',
    prompt_template: 'Праздничная открытка к событию «{occasion}» для {recipient}, стиль: {style}',
    // Switched on, but its model's connection is off: users do not see it.
    connection: 'OpenAI',
    hidden_because: 'connection',
    fields: [
      { name: 'occasion', label: 'Праздник', placeholder: 'День рождения', multiline: false, required: true, max_length: 500 },
      { name: 'recipient', label: 'Кому', placeholder: 'маме', multiline: false, required: true, max_length: 500 },
      { name: 'style', label: 'Стиль', placeholder: 'акварель', multiline: false, required: false, max_length: 500 },
    ],
    example_url: null,
    sort: 30,
    active: true,
    ...stamps(30),
  },
  {
    id: 7,
    model_id: 6,
    model: 'Демо-автор',
    model_kind: 'text',
    connection: 'Демо',
    price: { wallet: 'words', amount: 844, up_to: true },
    hidden_because: null,
    category_id: 3,
    category: 'Тексты',
    variant: 'text_1',
    name: 'Пост для соцсетей',
    description: 'Тема и тон — и готовый пост с призывом к действию.',
    prompt_template: 'Напиши пост для соцсетей на тему «{topic}». Тон: {tone}.',
    fields: [
      { name: 'topic', label: 'Тема', placeholder: 'Открытие кофейни', multiline: false, required: true, max_length: 200 },
      { name: 'tone', label: 'Тон', placeholder: 'дружелюбный', multiline: false, required: false, max_length: 50 },
    ],
    example_url: null,
    sort: 10,
    active: false,
    ...stamps(20),
  },
];
