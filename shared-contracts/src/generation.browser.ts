import type { Endpoint, MultipartSpec } from './route.ts';

/*
 * What of the generation contract the browser needs: endpoints, limits and texts. Plain data (no
 * schema): the loader's lazy chunk of the catalogue (`generation.client.ts`) then shares no
 * module with its boot chunk, which would otherwise be split into a chunk every page fetches.
 */

/** Largest uploaded image (the user's photo or example), in bytes. */
export const GENERATION_IMAGE_MAX_BYTES = 15 * 1024 * 1024;

export const GENERATION_LIMITS = {
  promptMaxLength: 2000,
  /** Runs of one user queued or running at once. */
  activePerUser: 10,
  /** History page size. */
  pageSize: 24,
} as const;

/** The files of a run: the user's image (`image`, PNG/JPEG/WebP) and the painted mask (`mask`, PNG). */
export const GENERATION_UPLOADS = {
  files: {
    image: { accept: ['png', 'jpeg', 'webp'], maxBytes: GENERATION_IMAGE_MAX_BYTES },
    mask: { accept: ['png'], maxBytes: GENERATION_IMAGE_MAX_BYTES },
  },
  maxFiles: 2,
  maxTotalBytes: 2 * GENERATION_IMAGE_MAX_BYTES,
} as const satisfies MultipartSpec;


export const generationPaths = {
  start: { method: 'POST', path: '/api/new/generations', access: 'confirmed', multipart: GENERATION_UPLOADS },
  history: { method: 'GET', path: '/api/new/generations', access: 'user' },
  status: { method: 'GET', path: '/api/new/generations/:id', access: 'user' },
  events: { method: 'GET', path: '/api/new/generations/:id/events', access: 'user' },
  cancel: { method: 'POST', path: '/api/new/generations/:id/cancel', access: 'user' },
  replicateWebhook: { method: 'POST', path: '/api/replicate/webhook', access: 'public' },
} as const satisfies Record<string, Endpoint>;

/**
 * Why a run failed, as its user reads it (the server adds «Токены возвращены на баланс»): one
 * text per cause the provider's error tells apart. Admins also see the provider's own words.
 */
export const GENERATION_FAILURES = {
  /** Anything else (the model could not make a result). */
  failed: 'Не удалось выполнить генерацию',
  /** The provider refused the prompt or the picture under its rules on content. */
  contentPolicy: 'Сервис генерации отклонил запрос по своим правилам о содержании. Измените описание или изображение и попробуйте снова',
  /** The provider did not accept the request (a parameter, a picture it cannot take). */
  refused: 'Сервис генерации не принял запрос. Попробуйте изменить описание, изображение или параметры',
  timeout: 'Сервис генерации не ответил вовремя. Попробуйте ещё раз',
  /** No key, no address, a connection switched off, a host the key may not go to, a model the provider does not know. */
  notConfigured: 'Модель сейчас недоступна: сервис генерации не подключён. Выберите другой продукт или попробуйте позже',
  /** The service's account at the provider has run out of money. */
  noCredits: 'Модель сейчас недоступна: на счёте сервиса генерации закончились средства. Выберите другой продукт или попробуйте позже',
  rateLimited: 'Сервис генерации перегружен запросами. Попробуйте через несколько минут',
  /** The provider is down or cannot be reached. */
  unavailable: 'Сервис генерации сейчас недоступен. Попробуйте позже',
} as const;

export const GENERATION_TEXTS = {
  failed: GENERATION_FAILURES.failed,
  refunded: 'Токены возвращены на баланс',
  tooMany: 'Дождитесь окончания текущих генераций: одновременно можно запустить не больше 10',
  notCancellable: 'Эту генерацию уже не отменить',
} as const;

/**
 * Why a run failed, without the sentence about its tokens that the server adds (screens say that
 * on a line of their own when they came back): «Модель сейчас недоступна: … Токены возвращены на
 * баланс» → «Модель сейчас недоступна: …»; «Не удалось выполнить генерацию» when it says nothing.
 */
export function failureReason(error: string | null): string {
  const reason = (error ?? '').replace(new RegExp(`[.\\s]*${GENERATION_TEXTS.refunded}[.\\s]*$`), '').trim();
  return reason || GENERATION_TEXTS.failed;
}
