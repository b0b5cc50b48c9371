/* The settings staff change at run time (Настройки). */
import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema } from './envelope.ts';
import { SettingsInputSchema } from './admin-inputs.ts';
import { adminBillingPaths } from './admin-billing.browser.ts';

const SettingsValuesSchema = z.object({
  welcome_words: z.number().int(),
  welcome_media: z.number(),
  referral_words: z.number().int(),
  telegram_channel: z.string(),
  support_url: z.string(),
  sandbox_payments: z.boolean(),
  sandbox_telegram: z.boolean(),
});

/** The settings in force, their defaults (from the environment), and which sandboxes this installation runs (no keys configured). */
export const AdminSettingsSchema = SettingsValuesSchema.extend({
  defaults: SettingsValuesSchema,
  /** The news channel's address, as the welcome notice links it. */
  channel_url: z.string(),
  sandbox: z.object({ payments: z.boolean(), telegram: z.boolean() }),
  updated_at: TimestampSchema.nullable(),
});
export type AdminSettings = z.infer<typeof AdminSettingsSchema>;

export const adminSettingsRoutes = {
  settings: defineRoute({ ...adminBillingPaths.settings, summary: 'Settings in force and their defaults', tags: ['admin'], response: AdminSettingsSchema }),
  updateSettings: defineRoute({
    ...adminBillingPaths.updateSettings,
    summary: 'Changes the settings; every process uses them at once, no restart; written to the audit log',
    tags: ['admin'],
    body: SettingsInputSchema,
    response: AdminSettingsSchema,
  }),
} as const;
