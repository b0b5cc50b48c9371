import type { Endpoint } from './route.ts';

/* What of the chat contract the browser needs: endpoints, limits and texts. */

export const CHAT_LIMITS = { maxImages: 2, titleLength: 20, imageTypes: ['image/png', 'image/jpeg'] } as const;

export const chatPaths = {
  list: { method: 'GET', path: '/api/new/chat', access: 'user' },
  messages: { method: 'GET', path: '/api/new/chat/:id', access: 'user' },
  send: { method: 'POST', path: '/api/new/chat', access: 'confirmed', multipart: true },
  models: { method: 'GET', path: '/api/new/chat_models', access: 'user' },
} as const satisfies Record<string, Endpoint>;

export const CHAT_TEXTS = {
  requestFailed: 'Ошибка при выполнении запроса',
  sendFailed: 'Ошибка при отправке',
  you: 'Вы',
} as const;
