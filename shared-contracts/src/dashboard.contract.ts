import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { dashboardPaths } from './dashboard.browser.ts';
import { OkSchema, BalancesSchema } from './accounts.contract.ts';

export * from './dashboard.browser.ts';

export const DashboardCardSchema = z.object({
  id: z.number().int(),
  link: z.string(),
  icon: z.string(),
  name: z.string(),
  description: z.string(),
});
export type DashboardCard = z.infer<typeof DashboardCardSchema>;

/** State of the welcome notice (seed §1, §4; PRODUCT.md "Welcome gift"). */
export const WelcomeStateSchema = z.object({
  /** The notice is shown until the user closes it. */
  visible: z.boolean(),
  gift: z.object({ words: z.number().int(), media: z.number() }),
  channel_url: z.string(),
  /** Deep link that ties the Telegram account to this user. */
  bot_url: z.string(),
  linked: z.boolean(),
  claimed: z.boolean(),
  /** Membership is checked against the local sandbox, not Telegram. */
  sandbox: z.boolean(),
});
export type WelcomeState = z.infer<typeof WelcomeStateSchema>;

export const dashboardRoutes = {
  cards: defineRoute({
    ...dashboardPaths.cards,
    summary: 'News cards of the dashboard',
    tags: ['dashboard'],
    response: z.array(DashboardCardSchema),
  }),
  welcome: defineRoute({
    ...dashboardPaths.welcome,
    summary: 'State of the welcome notice and its gift',
    tags: ['dashboard'],
    response: WelcomeStateSchema,
  }),
  welcomeCheck: defineRoute({
    ...dashboardPaths.welcomeCheck,
    summary: 'Checks the Telegram channel membership and grants the gift once',
    tags: ['dashboard'],
    response: z.object({ claimed: z.literal(true), balances: BalancesSchema }),
  }),
  welcomeClose: defineRoute({
    ...dashboardPaths.welcomeClose,
    summary: 'Closes the welcome notice for good',
    tags: ['dashboard'],
    response: OkSchema,
  }),
  telegramWebhook: defineRoute({
    ...dashboardPaths.telegramWebhook,
    signed: true,
    raw: true,
    summary: 'Telegram Bot API updates (X-Telegram-Bot-Api-Secret-Token)',
    tags: ['dashboard'],
    body: z.record(z.string(), z.unknown()),
    response: z.object({ ok: z.boolean() }),
  }),
} as const;
