import type { Endpoint } from './route.ts';

/* What of the dashboard contract the browser needs: endpoints and constants. */

export const WELCOME_GIFT = { words: 10000, media: 3 } as const;

export const dashboardPaths = {
  cards: { method: 'GET', path: '/api/new/dashboard', access: 'user' },
  welcome: { method: 'GET', path: '/api/new/welcome', access: 'user' },
  welcomeCheck: { method: 'POST', path: '/api/new/welcome/check', access: 'confirmed' },
  welcomeClose: { method: 'GET', path: '/api/new/nt_close', access: 'user' },
  telegramWebhook: { method: 'POST', path: '/api/telegram/webhook', access: 'public' },
} as const satisfies Record<string, Endpoint>;
