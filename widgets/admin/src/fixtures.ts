import type { AdminUser, AdminUserDetail, AuditEntry, JobFailure } from '@app/contracts/admin';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, 0) - minutes * 60_000).toISOString();

export const USERS: AdminUser[] = [
  { id: 42, email: 'anna@example.ru', role: 'user', email_confirmed: true, blocked: false, balances: { words: 12_500, media: 24.5 }, created_at: at(60) },
  { id: 41, email: 'boris@example.ru', role: 'admin', email_confirmed: true, blocked: false, balances: { words: 0, media: 0 }, created_at: at(600) },
  { id: 40, email: 'spam@example.ru', role: 'user', email_confirmed: false, blocked: true, balances: { words: 10_000, media: 3 }, created_at: at(6000) },
];

export const DETAIL: AdminUserDetail = {
  ...(USERS[0] as AdminUser),
  telegram_linked: true,
  subscriptions: [{ id: 7, tariff: 'Стандарт', status: 'active', amount: 990, created_at: at(50) }],
  payments: [
    { id: 15, kind: 'subscription', status: 'paid', amount: 990, currency: 'RUB', created_at: at(50) },
    { id: 16, kind: 'package', status: 'refunded', amount: 290, currency: 'RUB', created_at: at(40) },
  ],
  generations: [{ id: 301, product: 'Картинка по описанию', status: 'succeeded', created_at: at(30) }],
  chats: [{ id: 12, title: 'План статьи', messages: 6, updated_at: at(20) }],
  ledger: [
    { id: 90, kind: 'words', amount: 2500, reason: 'admin_adjustment', note: 'Компенсация за сбой', created_at: at(10) },
    { id: 89, kind: 'media', amount: -1, reason: 'generation_hold', note: null, created_at: at(30) },
    { id: 88, kind: 'words', amount: 10_000, reason: 'subscription_grant', note: null, created_at: at(50) },
  ],
};

export const AUDIT: AuditEntry[] = [
  {
    id: 14,
    actor_id: 41,
    actor_email: 'boris@example.ru',
    action: 'ai_product.update',
    entity: 'ai_product',
    entity_id: '5',
    before: { name: 'Открытка', category_id: 1, model_id: 3 },
    after: { name: 'Открытка', category_id: 2, model_id: 3 },
    created_at: at(0.5),
    names: { 'category_id:1': 'Фото', 'model_id:3': 'Художник' },
  },
  {
    id: 13,
    actor_id: 41,
    actor_email: 'boris@example.ru',
    action: 'ai_product.example',
    entity: 'ai_product',
    entity_id: '5',
    before: { example_file_id: null },
    after: { example_file_id: 31, name: 'открытка.png', content_type: 'image/png', size: 250_880 },
    created_at: at(1),
    names: {},
  },
  { id: 12, actor_id: null, actor_email: null, action: 'user.second_factor_reset', entity: 'user', entity_id: '41', before: { second_factor: true }, after: { second_factor: false }, created_at: at(1), names: {} },
  { id: 11, actor_id: 41, actor_email: 'boris@example.ru', action: 'user.recovery_code', entity: 'user', entity_id: '41', before: null, after: null, created_at: at(1), names: {} },
  { id: 10, actor_id: 41, actor_email: 'boris@example.ru', action: 'user.second_factor_enrol', entity: 'user', entity_id: '41', before: { second_factor: false }, after: { second_factor: true }, created_at: at(1), names: {} },
  { id: 9, actor_id: 41, actor_email: 'boris@example.ru', action: 'coupon.refresh', entity: 'coupon', entity_id: 'SPRING', before: { max_uses: 10 }, after: { max_uses: 20 }, created_at: at(2) },
  {
    id: 8,
    actor_id: 41,
    actor_email: 'boris@example.ru',
    action: 'payment.refund',
    entity: 'payment',
    entity_id: '15',
    before: { refunded: 0, refunding: 0, refundable: 990 },
    after: { refund_id: 4, amount: 490.5, reason: 'Сбой генерации', refunding: 490.5, refundable: 499.5 },
    created_at: at(3),
  },
  {
    id: 7,
    actor_id: 41,
    actor_email: 'boris@example.ru',
    action: 'settings.update',
    entity: 'settings',
    entity_id: 'global',
    before: { welcome_words: 10_000, welcome_media: 3, sandbox_payments: true },
    after: { welcome_words: 12_000, welcome_media: 3, sandbox_payments: false },
    created_at: at(4),
  },
  { id: 6, actor_id: 41, actor_email: 'boris@example.ru', action: 'tariff.update', entity: 'tariff', entity_id: '3', before: { name: 'Стандарт', amount: 990, popular: false, media: 50 }, after: { name: 'Стандарт', amount: 1290, popular: true, media: 75.5 }, created_at: at(5) },
  {
    id: 5,
    actor_id: 41,
    actor_email: 'boris@example.ru',
    action: 'ai_model.create',
    entity: 'ai_model',
    entity_id: '12',
    before: null,
    after: { name: 'Художник', kind: 'image', connection_id: 2, provider_model: 'demo-image', media_price_tenths: 15, setting: { model: { params: [{ value: 'square', label: 'Квадрат 1024×1024' }] } }, active: true },
    created_at: at(6),
  },
  { id: 4, actor_id: 41, actor_email: 'boris@example.ru', action: 'user.balance', entity: 'user', entity_id: '42', before: { wallet: 'media', balance: 22 }, after: { wallet: 'media', balance: 24.5, amount: 2.5, reason: 'Сбой видео' }, created_at: at(8) },
  { id: 3, actor_id: 41, actor_email: 'boris@example.ru', action: 'user.balance', entity: 'user', entity_id: '42', before: { wallet: 'words', balance: 10_000 }, after: { wallet: 'words', balance: 12_500, amount: 2500, reason: 'Компенсация за сбой' }, created_at: at(10) },
  { id: 2, actor_id: 41, actor_email: 'boris@example.ru', action: 'user.update', entity: 'user', entity_id: '40', before: { role: 'user', blocked: false }, after: { role: 'user', blocked: true }, created_at: at(100) },
  { id: 1, actor_id: null, actor_email: null, action: 'user.update', entity: 'user', entity_id: '41', before: { role: 'user', blocked: false }, after: { role: 'admin', blocked: false }, created_at: at(1000) },
];

export const FAILURES: JobFailure[] = [{ id: 5, job_id: 'j-5', queue: 'mail.send', payload: {}, error: 'Error: connect ECONNREFUSED 127.0.0.1:25', attempts: 6, failed_at: at(5), resolved_at: null }];
