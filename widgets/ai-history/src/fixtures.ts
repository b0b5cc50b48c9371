import { GENERATION_FAILURES, GENERATION_TEXTS, type Generation } from '@app/contracts/generation';

/** What the server says of a run that failed for `cause`. */
const failure = (cause: keyof typeof GENERATION_FAILURES) => `${GENERATION_FAILURES[cause]}. ${GENERATION_TEXTS.refunded}`;

const at = (minutes: number) => new Date(Date.UTC(2025, 4, 20, 12, 0) - minutes * 60_000).toISOString();

/** A data URL of a picture drawn in `colors` (stories and tests need no server for previews). */
const picture = (sky: string, ground: string, sun: string) =>
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><rect width="512" height="512" fill="${sky}"/><circle cx="340" cy="190" r="70" fill="${sun}"/><path d="M0 512V330l120-90 110 110 90-70 192 150v82z" fill="${ground}"/></svg>`,
  );

export const PICTURES = [picture('#c7d2fe', '#6366f1', '#fde68a'), picture('#fed7aa', '#c2410c', '#fef3c7'), picture('#bbf7d0', '#15803d', '#fef9c3'), picture('#e9d5ff', '#7e22ce', '#fbcfe8')] as const;

const output = (id: number, url: string, kind: 'image' | 'video' = 'image') => ({ id, url, download_url: `${url}#download`, kind, mime: kind === 'video' ? 'video/mp4' : 'image/png' });

let nextId = 100;
/** A run of «Картинка по описанию» that succeeded, changed by `over`. */
export const run = (over: Partial<Generation> = {}): Generation => ({
  id: nextId++,
  product_id: 1,
  product: 'Картинка по описанию',
  variant: 'img',
  model: 'Демо-художник',
  status: 'succeeded',
  progress: 100,
  prompt: 'Закат над морем, тёплые тона, стиль акварели',
  cost: { wallet: 'media', amount: 1 },
  refunded: false,
  error: null,
  outputs: [output(nextId, PICTURES[0])],
  text: null,
  created_at: at(30),
  finished_at: at(29),
  ...over,
});

export const QUEUED = run({ id: 11, status: 'queued', progress: 0, outputs: [], finished_at: null, created_at: at(1), prompt: 'Кот-астронавт в открытом космосе, фотореализм', cost: { wallet: 'media', amount: 2.5 } });
export const RUNNING = run({ id: 12, status: 'running', progress: 40, outputs: [], finished_at: null, created_at: at(2), prompt: 'Горное озеро на рассвете, туман над водой' });
export const SUCCEEDED = run({ id: 13, created_at: at(10) });
export const FAILED = run({ id: 14, status: 'failed', progress: 0, outputs: [], refunded: true, error: failure('notConfigured'), created_at: at(60), prompt: 'Город будущего ночью, неоновые вывески' });
/** Refused by the provider's rules on content. */
export const REFUSED = run({ id: 19, status: 'failed', progress: 0, outputs: [], refunded: true, error: failure('contentPolicy'), created_at: at(70), prompt: 'Что-то, что модель рисовать отказалась' });
export const CANCELLED = run({ id: 15, status: 'cancelled', progress: 0, outputs: [], refunded: true, created_at: at(90), prompt: 'Портрет девушки в стиле ренессанса' });
export const SEVERAL = run({
  id: 16,
  product: 'Открытка к празднику',
  variant: 'img_3',
  prompt: 'Праздничная открытка к событию «День рождения» для мамы, стиль: акварель. Нежные цвета, много цветов и воздушных шаров, подпись от руки',
  outputs: PICTURES.map((url, i) => output(160 + i, url)),
  cost: { wallet: 'media', amount: 4 },
  created_at: at(200),
});

/** A page of image runs in every state, newest first. */
export const IMAGE_RUNS: Generation[] = [
  QUEUED,
  RUNNING,
  SUCCEEDED,
  FAILED,
  run({ id: 17, product: 'По вашему образцу', variant: 'img_2', outputs: [output(170, PICTURES[1])], prompt: 'Сделать фото в стиле поп-арт', created_at: at(120) }),
  CANCELLED,
  SEVERAL,
  run({ id: 18, product: 'Заменить часть картинки', variant: 'mask', outputs: [output(180, PICTURES[2])], prompt: 'Вместо неба — северное сияние', created_at: at(400) }),
];

export const VIDEO_RUNS: Generation[] = [
  run({ id: 21, product: 'Видео по описанию', variant: 'video', model: 'Демо-видео', status: 'running', progress: 70, outputs: [], finished_at: null, prompt: 'Волны набегают на берег на закате', cost: { wallet: 'media', amount: 4 }, created_at: at(3) }),
  run({ id: 22, product: 'Видео по описанию', variant: 'video', model: 'Демо-видео', outputs: [output(220, 'data:video/mp4;base64,', 'video')], prompt: 'Снег падает на ночной город', cost: { wallet: 'media', amount: 6 }, created_at: at(50) }),
];

/** A model's answer: Markdown (bold, italics, a list), as text models write. */
export const POST_TEXT = [
  '☕ **Мы открылись!** Новая кофейня в самом центре города ждёт вас _каждый день_ с 8:00.',
  '',
  '- свежая обжарка;',
  '- десерты собственного приготовления;',
  '- уютные места у окна.',
  '',
  'Первым ста гостям — капучино в подарок. Приходите знакомиться и приводите друзей — отметьте нас в сторис! #кофейня #открытие',
].join('\n');

export const TEXT_RUNS: Generation[] = [
  run({ id: 31, product: 'Пост для соцсетей', variant: 'text_1', model: 'Демо-автор', outputs: [], text: POST_TEXT, prompt: 'Напиши пост для соцсетей на тему «Открытие кофейни». Тон: дружелюбный.', cost: { wallet: 'words', amount: 120 }, created_at: at(5) }),
  run({ id: 32, product: 'Описание товара', variant: 'text_1', model: 'Демо-автор', status: 'running', progress: 0, outputs: [], text: null, finished_at: null, prompt: 'Составь продающее описание товара «Термокружка 450 мл».', cost: { wallet: 'words', amount: 1201 }, created_at: at(1) }),
  run({ id: 33, product: 'Описание товара', variant: 'text_1', model: 'Демо-автор', status: 'failed', progress: 0, outputs: [], text: null, refunded: true, error: failure('timeout'), prompt: 'Составь продающее описание товара «Рюкзак».', cost: { wallet: 'words', amount: 1201 }, created_at: at(80) }),
];

/** `n` finished image runs (a long history). */
export const manyRuns = (n: number, from = 1000): Generation[] => Array.from({ length: n }, (_, i) => run({ id: from - i, outputs: [output(from - i, PICTURES[i % PICTURES.length] ?? PICTURES[0])], prompt: `Картинка номер ${String(i + 1)}`, created_at: at(i * 15) }));
