import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema, storableText } from './fields.ts';
import { DeleteAccountBodySchema, LEGAL_KINDS, NOTICE_KINDS, NoticeSettingsBodySchema, privacyPaths } from './privacy.browser.ts';

export * from './privacy.browser.ts';

/** Every notice with whether it is mailed and whether the user may turn it off. */
export const NoticeSettingsSchema = z.object({
  notices: z.array(z.object({ kind: z.enum(NOTICE_KINDS), label: z.string(), enabled: z.boolean(), required: z.boolean() })),
});
export type NoticeSettings = z.infer<typeof NoticeSettingsSchema>;

export const LegalDocumentSchema = z.object({
  kind: z.enum(LEGAL_KINDS),
  title: z.string(),
  version: z.number().int(),
  body: z.string(),
  published_at: z.string(),
});
export type LegalDocument = z.infer<typeof LegalDocumentSchema>;

export const LegalKindParams = z.object({ kind: z.enum(LEGAL_KINDS, { error: 'Такого документа нет' }) });

/** A new version of the policy or the offer, as staff type it. */
export const LegalDocumentInputSchema = z.object({
  body: z
    .string({ error: 'Введите текст документа' })
    .trim()
    .min(1, 'Введите текст документа')
    .max(100_000, 'Текст не длиннее 100 000 символов')
    .check(storableText()),
});

export const AdminLegalSchema = z.object({
  current: LegalDocumentSchema,
  versions: z.array(z.object({ version: z.number().int(), published_at: z.string(), author: z.string().nullable() })),
});
export type AdminLegal = z.infer<typeof AdminLegalSchema>;

/** One user's data: each part a list of records as stored (dates as ISO strings). */
export const UserExportSchema = z.object({
  exported_at: z.string(),
  user: z.record(z.string(), z.unknown()),
  parts: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type UserExport = z.infer<typeof UserExportSchema>;

export const privacyRoutes = {
  noticeSettings: defineRoute({
    ...privacyPaths.noticeSettings,
    summary: 'The mail notices about the plan and which of them the user turned off',
    tags: ['settings'],
    response: NoticeSettingsSchema,
  }),
  updateNoticeSettings: defineRoute({
    ...privacyPaths.updateNoticeSettings,
    summary: 'Turns the optional notices on or off (the charge notices stay on)',
    tags: ['settings'],
    body: NoticeSettingsBodySchema,
    response: NoticeSettingsSchema,
  }),
  deleteAccount: defineRoute({
    ...privacyPaths.deleteAccount,
    summary:
      'Deletes the account, confirmed by the password: the plan ends, chats, files and runs are erased, the email replaced by a placeholder, every session ended; payments and the ledger are kept anonymised',
    tags: ['settings'],
    body: DeleteAccountBodySchema,
    response: z.object({ deleted: z.literal(true) }),
  }),
  legal: defineRoute({
    ...privacyPaths.legal,
    summary: 'The current version of the personal-data policy or the offer',
    tags: ['settings'],
    params: LegalKindParams,
    response: LegalDocumentSchema,
  }),
  adminLegal: defineRoute({
    ...privacyPaths.adminLegal,
    summary: 'The policy or the offer in force with its earlier versions',
    tags: ['admin'],
    params: LegalKindParams,
    response: AdminLegalSchema,
  }),
  adminPublishLegal: defineRoute({
    ...privacyPaths.adminPublishLegal,
    summary: 'Publishes a new version of the policy or the offer (the page shows it at once); written to the audit log',
    tags: ['admin'],
    params: LegalKindParams,
    body: LegalDocumentInputSchema,
    response: AdminLegalSchema,
  }),
  adminExportUser: defineRoute({
    ...privacyPaths.adminExportUser,
    summary: 'Everything stored about one user, as JSON (a request under 152-ФЗ); written to the audit log',
    tags: ['admin'],
    params: z.object({ id: IdSchema }),
    response: UserExportSchema,
  }),
} as const;
