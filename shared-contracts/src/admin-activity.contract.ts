/* Every user's runs (История генераций) and chats (Чат), as staff read them. */
import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { IdSchema } from './fields.ts';
import { adminListQuery } from './admin.contract.ts';
import { ChatMessageSchema, ChatMessagesQuerySchema } from './chat.contract.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import { CHAT_SORTS, GENERATION_SORTS, GENERATION_STATUSES, adminBillingPaths } from './admin-billing.browser.ts';

const IdParams = z.object({ id: IdSchema });

/** A run of any user (История генераций). */
export const AdminGenerationSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  product: z.string(),
  model: z.string(),
  variant: z.enum(PRODUCT_VARIANTS),
  status: z.enum(GENERATION_STATUSES),
  wallet: z.enum(['words', 'media']),
  /** Charged (or held while it runs; given back when it failed or was cancelled): words, or media tokens with one decimal. */
  cost: z.number(),
  prompt: z.string(),
  /** Why it failed, as its user reads it. */
  error: z.string().nullable(),
  /** What really happened: the provider's own words (or the last attempt's, while it is retried). */
  error_detail: z.string().nullable(),
  /** The outputs' file ids (admins read them through the file route). */
  outputs: z.array(z.number().int()),
  created_at: TimestampSchema,
  finished_at: TimestampSchema.nullable(),
});
export type AdminGeneration = z.infer<typeof AdminGenerationSchema>;

export const AdminGenerationsQuerySchema = adminListQuery(GENERATION_SORTS, 'id').extend({
  status: z.enum(GENERATION_STATUSES, { error: `Статус: ${GENERATION_STATUSES.join(', ')}` }).optional(),
});

/** A chat of any user (Чат): its owner, how many messages and words it took. */
export const AdminChatSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  title: z.string(),
  message_count: z.number().int(),
  /** Words charged for its answers. */
  words: z.number().int(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminChat = z.infer<typeof AdminChatSchema>;

/** A message as its user sees it, with what staff need besides: tokens, the failure, the images' file ids. */
export const AdminChatMessageSchema = ChatMessageSchema.omit({ images: true }).extend({
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
  /** Why an answer failed (the provider's words, for staff). */
  error: z.string().nullable(),
  /** Attached images' file ids. */
  files: z.array(z.number().int()),
  /** A version the user replaced — an answer asked again, a question edited: not in the conversation the user sees, still charged. */
  replaced: z.boolean(),
});

/** A chat with a page of its messages in order: the latest 50, or the 50 before `before`; `truncated` when older ones remain. */
export const AdminChatDetailSchema = AdminChatSchema.extend({
  messages: z.array(AdminChatMessageSchema),
  truncated: z.boolean(),
});
export type AdminChatDetail = z.infer<typeof AdminChatDetailSchema>;

const list = (what: string) => `${what}, 20 a page`;

export const adminActivityRoutes = {
  generations: defineRoute({
    ...adminBillingPaths.generations,
    summary: list('Every user’s runs, search by email, product or model, filter by status, sort by id, created_at or cost'),
    tags: ['admin'],
    query: AdminGenerationsQuerySchema,
    response: paginated(AdminGenerationSchema),
  }),
  chats: defineRoute({
    ...adminBillingPaths.chats,
    summary: list('Every user’s chats with message counts, search by email or title'),
    tags: ['admin'],
    query: adminListQuery(CHAT_SORTS, 'updated_at'),
    response: paginated(AdminChatSchema),
  }),
  chat: defineRoute({
    ...adminBillingPaths.chat,
    summary: 'One chat with a page of its messages: the latest 50, or with `before` (a message id) the 50 before it',
    tags: ['admin'],
    params: IdParams,
    query: ChatMessagesQuerySchema,
    response: AdminChatDetailSchema,
  }),
} as const;
