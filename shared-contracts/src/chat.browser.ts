import * as z from 'zod/mini';
import { IdSchema, toStorableText } from './fields.ts';
import type { Endpoint, MultipartSpec } from './route.ts';

/* What of the chat contract the browser needs: endpoints, limits, the message form's schema (zod/mini) and texts. */

/** Largest image a message may carry, in bytes. */
export const CHAT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const CHAT_LIMITS = {
  /** Seed §9: at most 2 images per message. */
  maxImages: 2,
  /** Seed §9: chat titles are cut at 20 characters (plus «…»). */
  titleLength: 20,
  imageTypes: ['image/png', 'image/jpeg'],
  imageMaxBytes: CHAT_IMAGE_MAX_BYTES,
  messageMaxLength: 20_000,
  titleMaxLength: 100,
  /** Answers one user may have being written at once (one a chat). */
  answersPerUser: 3,
  /** Messages of a chat a reply holds at most (the newest, or those before the `before` cursor). */
  messagesPage: 50,
} as const;

/** The files of a message: `image_example` and `image_example_2` (seed §7), PNG or JPEG by content. */
export const CHAT_UPLOADS = {
  files: {
    image_example: { accept: ['png', 'jpeg'], maxBytes: CHAT_IMAGE_MAX_BYTES },
    image_example_2: { accept: ['png', 'jpeg'], maxBytes: CHAT_IMAGE_MAX_BYTES },
  },
  maxFiles: CHAT_LIMITS.maxImages,
  maxTotalBytes: CHAT_LIMITS.maxImages * CHAT_IMAGE_MAX_BYTES,
} as const satisfies MultipartSpec;

/** The text fields of a message (seed §7: ai_models_id, param, message, chat_id). */
export const ChatSendFieldsSchema = z.object({
  ai_models_id: IdSchema,
  param: z.optional(z.string().check(z.maxLength(200, 'Слишком длинный параметр'))),
  message: z.string({ error: 'Введите сообщение' }).check(z.trim(), z.minLength(1, 'Введите сообщение'), z.maxLength(CHAT_LIMITS.messageMaxLength, 'Сообщение слишком длинное')),
  chat_id: z.optional(IdSchema),
});

/** A search over the user's chats: words as typed (the `russian` configuration matches their forms). */
export const ChatSearchQuerySchema = z.object({
  q: z.string({ error: 'Введите, что искать' }).check(z.overwrite(toStorableText), z.trim(), z.minLength(2, 'Введите хотя бы 2 символа'), z.maxLength(200, 'Не длиннее 200 символов')),
});

export const ChatRenameBodySchema = z.object({
  // Cleaned first (NUL out, lone surrogates as U+FFFD): a title that was nothing else is no title.
  title: z.string({ error: 'Введите название' }).check(z.overwrite(toStorableText), z.trim(), z.minLength(1, 'Введите название'), z.maxLength(CHAT_LIMITS.titleMaxLength, 'Не длиннее 100 символов')),
});

export const chatPaths = {
  list: { method: 'GET', path: '/api/new/chat', access: 'user' },
  messages: { method: 'GET', path: '/api/new/chat/:id', access: 'user' },
  send: { method: 'POST', path: '/api/new/chat', access: 'confirmed', multipart: CHAT_UPLOADS },
  sendStream: { method: 'POST', path: '/api/new/chat/stream', access: 'confirmed', multipart: CHAT_UPLOADS },
  stop: { method: 'POST', path: '/api/new/chat/:id/stop', access: 'user' },
  rename: { method: 'PATCH', path: '/api/new/chat/:id', access: 'user' },
  remove: { method: 'DELETE', path: '/api/new/chat/:id', access: 'user' },
  models: { method: 'GET', path: '/api/new/chat_models', access: 'user' },
  regenerate: { method: 'POST', path: '/api/new/chat/:id/regenerate', access: 'confirmed' },
  edit: { method: 'POST', path: '/api/new/chat/:id/edit', access: 'confirmed' },
  variant: { method: 'POST', path: '/api/new/chat/:id/variant', access: 'user' },
  search: { method: 'GET', path: '/api/new/chat/search', access: 'user' },
  exportMarkdown: { method: 'GET', path: '/api/new/chat/:id/export', access: 'user' },
  estimate: { method: 'POST', path: '/api/new/chat/estimate', access: 'user' },
  summary: { method: 'POST', path: '/api/new/chat/:id/summary', access: 'confirmed' },
} as const satisfies Record<string, Endpoint>;

export const CHAT_TEXTS = {
  requestFailed: 'Ошибка при выполнении запроса',
  sendFailed: 'Ошибка при отправке',
  you: 'Вы',
  newChat: 'Новый чат',
} as const;
