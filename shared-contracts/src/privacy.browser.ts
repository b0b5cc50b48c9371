import * as z from 'zod/mini';
import type { Endpoint } from './route.ts';

/* What of the notices and personal-data contract the browser needs: endpoints, forms' schemas, texts. */

/**
 * Mail notices about a plan. `trial_end` (a day before the trial turns into the monthly charge)
 * and `renewal` (three days before each renewal) are required: they announce a charge and cannot
 * be turned off. The others a user may turn off in the settings.
 */
export const NOTICE_KINDS = ['trial_end', 'renewal', 'renewal_failed', 'plan_ended'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const OPTIONAL_NOTICE_KINDS = ['renewal_failed', 'plan_ended'] as const satisfies readonly NoticeKind[];
export type OptionalNoticeKind = (typeof OPTIONAL_NOTICE_KINDS)[number];

/** How the settings page names each notice. */
export const NOTICE_LABELS: Record<NoticeKind, string> = {
  trial_end: 'За сутки до окончания пробного периода и первого списания',
  renewal: 'За три дня до продления подписки',
  renewal_failed: 'Если продление подписки не удалось',
  plan_ended: 'Когда подписка закончилась',
};

export const LEGAL_KINDS = ['privacy', 'offer'] as const;
export type LegalKind = (typeof LEGAL_KINDS)[number];
/** The pages of the personal-data policy and the offer. */
export const LEGAL_PAGES: Record<LegalKind, { path: string; title: string }> = {
  privacy: { path: '/privacy', title: 'Политика обработки персональных данных' },
  offer: { path: '/offer', title: 'Публичная оферта' },
};

/** The settings page. */
export const SETTINGS_PATH = '/settings';

export const NoticeSettingsBodySchema = z.object({
  renewal_failed: z.boolean({ error: 'Укажите, присылать ли это письмо' }),
  plan_ended: z.boolean({ error: 'Укажите, присылать ли это письмо' }),
});

export const DeleteAccountBodySchema = z.object({
  password: z.string({ error: 'Введите пароль' }).check(z.minLength(1, 'Введите пароль'), z.maxLength(256, 'Неверный пароль')),
  confirm: z.literal(true, { error: 'Подтвердите удаление аккаунта' }),
});

export const privacyPaths = {
  noticeSettings: { method: 'GET', path: '/api/new/settings/notices', access: 'user' },
  updateNoticeSettings: { method: 'PUT', path: '/api/new/settings/notices', access: 'user' },
  deleteAccount: { method: 'POST', path: '/api/new/account/delete', access: 'user' },
  legal: { method: 'GET', path: '/api/new/legal/:kind', access: 'public' },
  adminLegal: { method: 'GET', path: '/api/admin/legal/:kind', access: 'admin' },
  adminPublishLegal: { method: 'POST', path: '/api/admin/legal/:kind', access: 'admin' },
  adminExportUser: { method: 'GET', path: '/api/admin/users/:id/export', access: 'admin' },
} as const satisfies Record<string, Endpoint>;

export const PRIVACY_TEXTS = {
  saved: 'Настройки сохранены',
  deleted: 'Аккаунт удалён',
  consent: 'Я согласен на обработку персональных данных в соответствии с',
  consentLink: 'политикой обработки персональных данных',
  consentRequired: 'Подтвердите согласие на обработку персональных данных',
} as const;
