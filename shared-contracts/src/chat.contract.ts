import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { CHAT_UPLOADS, ChatRenameBodySchema, ChatSendFieldsSchema, chatPaths } from './chat.browser.ts';
import { IdSchema } from './fields.ts';
import { PageQuerySchema, TimestampSchema, paginated } from './envelope.ts';
import { BalancesSchema } from './accounts.contract.ts';

export * from './chat.browser.ts';

/** A chat in the sidebar (seed §3: id, text — the title, whole; the widget cuts it at 20 characters). */
export const ChatListItemSchema = z.object({ id: z.number().int(), text: z.string(), updated_at: TimestampSchema });
export type ChatListItem = z.infer<typeof ChatListItemSchema>;

/** An image attached to a message: read back through the owner-only file route. */
export const ChatAttachmentSchema = z.object({ id: z.number().int(), url: z.string(), name: z.string() });

/**
 * A message (seed §3: role, text, model). `status`: `generating` while the answer is being
 * written (a reload shows it as far as it went), `stopped` when the user stopped it, `failed`
 * when the provider failed (its words came back). `words`: words charged for an answer.
 */
export const ChatMessageSchema = z.object({
  id: z.number().int(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  model: z.string().nullable(),
  status: z.enum(['done', 'generating', 'stopped', 'failed']),
  words: z.number().int(),
  images: z.array(ChatAttachmentSchema),
  created_at: TimestampSchema,
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A choice of a model's parameter (quality, temperature preset…): the value goes back as `param`. */
export const ChatModelParamSchema = z.object({ value: z.string(), label: z.string() });
export const ChatModelSettingSchema = z.object({ model: z.object({ params: z.array(ChatModelParamSchema) }) });

/**
 * A chat model (seed §3: id or ai_models_id, name, setting with model.params). The setting is
 * stored as an object or a JSON string; the reply always has the object.
 */
export const ChatModelSchema = z.object({
  id: z.number().int(),
  ai_models_id: z.number().int(),
  name: z.string(),
  setting: ChatModelSettingSchema,
  /** «Демо» for the offline demo provider. */
  provider: z.string(),
  /** Words charged per 1000 provider tokens (PRODUCT.md: ceil(tokens × words_per_token)). */
  words_per_1000_tokens: z.number(),
  /** The most an answer may cost, in words: held before the provider is called. */
  max_words: z.number().int(),
});
export type ChatModel = z.infer<typeof ChatModelSchema>;

/** The reply of a sent message (seed §3: chat_id, message, model), with what it cost. */
export const ChatSendResultSchema = z.object({
  chat_id: z.number().int(),
  message: z.string(),
  model: z.string(),
  message_id: z.number().int(),
  status: z.enum(['done', 'stopped']),
  words: z.number().int(),
  balances: BalancesSchema,
});
export type ChatSendResult = z.infer<typeof ChatSendResultSchema>;

/** Events of the streamed send, in this order: `start`, any number of `delta`, then `done` (or an `error` event). */
export const ChatStreamEvents = {
  start: z.object({ chat_id: z.number().int(), message_id: z.number().int(), model: z.string(), user_message_id: z.number().int() }),
  delta: z.object({ text: z.string() }),
  done: ChatSendResultSchema,
} as const;

export const ChatIdParamsSchema = z.object({ id: IdSchema });

export const chatRoutes = {
  list: defineRoute({
    ...chatPaths.list,
    summary: 'The user’s chats, newest first, one per page',
    tags: ['chat'],
    query: PageQuerySchema,
    response: paginated(ChatListItemSchema),
  }),
  messages: defineRoute({
    ...chatPaths.messages,
    summary: 'Messages of one of the user’s chats, oldest first',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    response: z.array(ChatMessageSchema),
  }),
  send: defineRoute({
    ...chatPaths.send,
    summary: 'Sends a message and answers when the answer is complete (multipart: ai_models_id, param, message, chat_id, image_example, image_example_2)',
    tags: ['chat'],
    body: ChatSendFieldsSchema,
    multipart: CHAT_UPLOADS,
    response: ChatSendResultSchema,
  }),
  sendStream: defineRoute({
    ...chatPaths.sendStream,
    summary: 'Sends a message and streams the answer as it is written (Server-Sent Events); the answer completes and is stored even if the connection drops',
    tags: ['chat'],
    body: ChatSendFieldsSchema,
    multipart: CHAT_UPLOADS,
    stream: { events: ChatStreamEvents },
    response: z.null(),
  }),
  stop: defineRoute({
    ...chatPaths.stop,
    summary: 'Stops the answer being written in the chat: it is kept as far as it went and charged for that much',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    response: z.object({ stopped: z.boolean() }),
  }),
  rename: defineRoute({
    ...chatPaths.rename,
    summary: 'Renames a chat (POST with `_method: PATCH` also routes here)',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    body: ChatRenameBodySchema,
    response: ChatListItemSchema,
  }),
  remove: defineRoute({
    ...chatPaths.remove,
    summary: 'Deletes a chat with its messages and images (POST with `_method: DELETE` also routes here)',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    response: z.object({ deleted: z.literal(true) }),
  }),
  models: defineRoute({
    ...chatPaths.models,
    summary: 'Chat models with their parameter choices and prices',
    tags: ['chat'],
    response: z.array(ChatModelSchema),
  }),
} as const;
