import type { AdminChat, AdminChatDetail, AdminGeneration, AdminSettings, Analytics, AnalyticsDay } from '@app/contracts/admin';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, 0) - minutes * 60_000).toISOString();

export const GENERATIONS: AdminGeneration[] = [
  {
    id: 305,
    user_id: 42,
    email: 'anna@example.ru',
    product: 'Картинка по описанию',
    model: 'FLUX 1.1 Pro',
    variant: 'img',
    status: 'succeeded',
    wallet: 'media',
    cost: 2,
    prompt: 'Рыжий кот в космическом шлеме, акварель',
    error: null,
    error_detail: null,
    outputs: [901, 902],
    created_at: at(12),
    finished_at: at(11.5),
  },
  {
    id: 304,
    user_id: 40,
    email: 'boris@example.ru',
    product: 'Видео по описанию',
    model: 'Kling 2.1',
    variant: 'video',
    status: 'failed',
    wallet: 'media',
    cost: 5,
    prompt: 'Волны разбиваются о скалы на закате',
    error: 'Сервис генерации отклонил запрос по своим правилам о содержании. Измените описание или изображение и попробуйте снова. Токены возвращены на баланс',
    error_detail: 'prediction 8m4kq2 failed: NSFW content detected. Try running it again, or try a different prompt.',
    outputs: [],
    created_at: at(30),
    finished_at: at(29),
  },
  {
    id: 303,
    user_id: 42,
    email: 'anna@example.ru',
    product: 'Пост для соцсетей',
    model: 'GPT-4o mini',
    variant: 'text_1',
    status: 'running',
    wallet: 'words',
    cost: 1500,
    prompt: 'Тема: открытие кофейни; тон: дружелюбный',
    error: null,
    error_detail: 'chat.completions gpt-4o-mini: HTTP 429 — Rate limit reached for requests',
    outputs: [],
    created_at: at(1),
    finished_at: null,
  },
  {
    id: 302,
    user_id: 41,
    email: 'vera@example.ru',
    product: 'Видео по описанию',
    model: 'Kling 2.1',
    variant: 'video',
    status: 'succeeded',
    wallet: 'media',
    cost: 12.5,
    prompt: 'Дрон пролетает над осенним лесом',
    error: null,
    error_detail: null,
    outputs: [903],
    created_at: at(300),
    finished_at: at(296),
  },
  {
    id: 301,
    user_id: 41,
    email: 'vera@example.ru',
    product: 'Картинка по описанию',
    model: 'FLUX 1.1 Pro',
    variant: 'img',
    status: 'cancelled',
    wallet: 'media',
    cost: 2,
    prompt: 'Маяк в тумане',
    error: null,
    error_detail: null,
    outputs: [],
    created_at: at(400),
    finished_at: at(399),
  },
];

export const CHATS: AdminChat[] = [
  { id: 12, user_id: 42, email: 'anna@example.ru', title: 'План статьи о кофе', message_count: 4, words: 1320, created_at: at(200), updated_at: at(20) },
  { id: 11, user_id: 40, email: 'boris@example.ru', title: 'Перевод договора аренды на английский язык', message_count: 2, words: 0, created_at: at(900), updated_at: at(880) },
];

export const CHAT_DETAIL: AdminChatDetail = {
  ...(CHATS[0] as AdminChat),
  truncated: false,
  messages: [
    { id: 51, role: 'user', text: 'Составь план статьи о кофе.\nТри раздела, коротко.', model: null, status: 'done', words: 0, input_tokens: null, output_tokens: null, error: null, files: [], replaced: false, created_at: at(200) },
    {
      id: 52,
      role: 'assistant',
      text: '**План статьи** — три раздела, _коротко_:\n\n1. История кофе\n2. Сорта и обжарка\n3. Как заваривать дома',
      model: 'GPT-4o mini',
      status: 'done',
      words: 1320,
      input_tokens: 420,
      output_tokens: 900,
      error: null,
      files: [],
      replaced: true,
      created_at: at(199),
    },
    {
      id: 53,
      role: 'assistant',
      text: '**Другой план**, четыре раздела:\n\n1. Откуда кофе\n2. Арабика и робуста\n3. Обжарка\n4. Заваривание дома',
      model: 'GPT-4o mini',
      status: 'done',
      words: 1410,
      input_tokens: 420,
      output_tokens: 960,
      error: null,
      files: [],
      replaced: false,
      created_at: at(198),
    },
    { id: 54, role: 'user', text: 'А что на этой картинке?', model: null, status: 'done', words: 0, input_tokens: null, output_tokens: null, error: null, files: [904], replaced: false, created_at: at(21) },
    { id: 55, role: 'assistant', text: '', model: 'GPT-4o mini', status: 'failed', words: 0, input_tokens: null, output_tokens: null, error: 'Провайдер не ответил за 60 с', files: [], replaced: false, created_at: at(20) },
  ],
};

/** `n` Moscow days up to 2026-11-20 with figures that vary (a refund larger than the day's payments on one day). */
export function analyticsFixture(n = 30): Analytics {
  const days: AnalyticsDay[] = Array.from({ length: n }, (_, i) => {
    const date = new Date(Date.UTC(2026, 10, 20 - (n - 1) + i)).toISOString().slice(0, 10);
    const payments = (i * 7) % 5;
    return {
      date,
      revenue: i === 3 ? -990 : payments * 990,
      payments,
      new_subscriptions: (i * 3) % 4,
      active_subscriptions: 40 + i,
      generations: 20 + ((i * 13) % 17),
      words_spent: 12_000 + ((i * 4_321) % 9_000),
      media_spent: Math.round(((i * 37) % 50) * 10) / 10 + 0.5,
    };
  });
  const sum = (pick: (d: AnalyticsDay) => number) => days.reduce((a, d) => a + pick(d), 0);
  return {
    from: days[0]?.date ?? '2026-11-20',
    to: days[days.length - 1]?.date ?? '2026-11-20',
    time_zone: 'Europe/Moscow',
    days,
    totals: {
      revenue: sum((d) => d.revenue),
      payments: sum((d) => d.payments),
      new_subscriptions: sum((d) => d.new_subscriptions),
      generations: sum((d) => d.generations),
      words_spent: sum((d) => d.words_spent),
      media_spent: Math.round(sum((d) => d.media_spent) * 10) / 10,
    },
  };
}

const DEFAULTS: AdminSettings['defaults'] = {
  welcome_words: 10_000,
  welcome_media: 3,
  referral_words: 5000,
  telegram_channel: '@neurostudio_news',
  support_url: 'mailto:support@neurostudio.local',
  sandbox_payments: true,
  sandbox_telegram: true,
};

/** The settings as a fresh installation has them: every value its default, both sandboxes running. */
export const SETTINGS: AdminSettings = { ...DEFAULTS, defaults: DEFAULTS, channel_url: 'https://t.me/neurostudio_news', sandbox: { payments: true, telegram: true }, updated_at: null };

/** Two values changed by an admin; the payments run on real keys (no sandbox). */
export const SETTINGS_CHANGED: AdminSettings = {
  ...SETTINGS,
  welcome_words: 5000,
  support_url: 'https://t.me/neurostudio_support',
  sandbox: { payments: false, telegram: true },
  updated_at: at(60),
};
