import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { CHAT_LIMITS, CHAT_UPLOADS, ChatRenameBodySchema, ChatSearchQuerySchema, ChatSendFieldsSchema, chatPaths } from './chat.browser.ts';
import { IdSchema, storableText } from './fields.ts';
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
  /**
   * The variants of this place of the conversation (answers regenerated, the user's message
   * edited), oldest first, this message among them; absent while there is only this one.
   */
  variants: z.array(z.number().int()).optional(),
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

/** Chats a page of the list holds at most when `per_page` asks for more than the seed's one. */
export const CHAT_LIST_PER_PAGE_MAX = 50;
const PER_PAGE = `Число чатов на странице: от 1 до ${String(CHAT_LIST_PER_PAGE_MAX)}`;
/**
 * The list's page: the seed's `?page=n`, one chat a page; `per_page` gives that many chats a page
 * (`last_page` counts such pages): the widget reads ten at once, one request where ten were.
 */
export const ChatListQuerySchema = PageQuerySchema.extend({
  per_page: z.coerce.number({ error: PER_PAGE }).int(PER_PAGE).min(1, PER_PAGE).max(CHAT_LIST_PER_PAGE_MAX, PER_PAGE).default(1),
});

const INVALID_CURSOR = 'Неверная позиция в переписке';
/**
 * A page of a chat's messages: without `before`, the newest (the seed's call); with it, the id of
 * the oldest message the client has, the messages before it. A reply of fewer than
 * `CHAT_LIMITS.messagesPage` messages reaches the chat's first message.
 */
export const ChatMessagesQuerySchema = z.object({
  before: z.coerce.number({ error: INVALID_CURSOR }).int(INVALID_CURSOR).positive(INVALID_CURSOR).max(Number.MAX_SAFE_INTEGER, INVALID_CURSOR).optional(),
});

const ModelChoice = {
  ai_models_id: IdSchema,
  param: z.string().max(200, 'Слишком длинный параметр').optional(),
};

/** A new answer to the chat's last question, with the same or another model. */
export const ChatRegenerateBodySchema = z.object(ModelChoice);

/** The user's last message written again (`message_id`): the answers after it are replaced, kept as variants. */
export const ChatEditBodySchema = z.object({
  ...ModelChoice,
  message_id: IdSchema,
  message: z
    .string({ error: 'Введите сообщение' })
    .trim()
    .min(1, 'Введите сообщение')
    .max(CHAT_LIMITS.messageMaxLength, 'Сообщение слишком длинное')
    .check(storableText()),
});

/** What a message will cost before it is sent: the chat's history, the message, up to the answer's maximum. */
export const ChatEstimateBodySchema = z.object({
  ...ModelChoice,
  chat_id: z.optional(IdSchema),
  message: z.string().max(CHAT_LIMITS.messageMaxLength, 'Сообщение слишком длинное').default(''),
  images: z.number().int('Неверное число изображений').min(0, 'Неверное число изображений').max(CHAT_LIMITS.maxImages, 'Не больше 2 изображений').default(0),
});

/**
 * The estimate, in words: `max_words` is what a send holds (and needs on the balance), `min_words`
 * what it costs with a short answer; `history_words` of both is the chat's earlier messages, which
 * the model reads again with every message (`history_messages` of them), `answer_words` the longest answer.
 */
export const ChatEstimateSchema = z.object({
  min_words: z.number().int(),
  max_words: z.number().int(),
  history_words: z.number().int(),
  history_messages: z.number().int(),
  answer_words: z.number().int(),
  /** How many of the chat's latest messages this model gets at most, when staff set it for the model (null: the service's window). */
  history_limit: z.number().int().nullable(),
  /** The most a short summary of the chat (a new chat started from it) holds with this model; 0 without a chat. */
  summary_words: z.number().int(),
});
export type ChatEstimate = z.infer<typeof ChatEstimateSchema>;

/**
 * A new chat started from a short summary of this one, written by the model chosen (the chat's
 * own when none is given) and charged as an answer. `request_id` is the browser's id of the click:
 * sent again (a retry), it answers the chat already made and charges nothing more.
 */
export const ChatSummaryBodySchema = z.object({
  request_id: z.uuid('Неверный идентификатор запроса'),
  ai_models_id: z.optional(IdSchema),
  param: z.string().max(200, 'Слишком длинный параметр').optional(),
});

/** The chat started from the summary: its first message is the summary (`generating` while a retry finds it still written). */
export const ChatSummaryResultSchema = z.object({
  chat_id: z.number().int(),
  title: z.string(),
  message_id: z.number().int(),
  status: z.enum(['done', 'stopped', 'generating']),
  words: z.number().int(),
  balances: BalancesSchema,
});
export type ChatSummaryResult = z.infer<typeof ChatSummaryResultSchema>;

/** A piece of a found text: `mark` for the words that matched. */
export const ChatSearchPieceSchema = z.object({ text: z.string(), mark: z.boolean() });

/** A chat found by its title or a message (`message_id`, null when only the title matched). */
export const ChatSearchHitSchema = z.object({
  chat_id: z.number().int(),
  title: z.array(ChatSearchPieceSchema),
  message_id: z.number().int().nullable(),
  role: z.enum(['user', 'assistant']).nullable(),
  snippet: z.array(ChatSearchPieceSchema),
  created_at: TimestampSchema,
});
export type ChatSearchHit = z.infer<typeof ChatSearchHitSchema>;

export const chatRoutes = {
  list: defineRoute({
    ...chatPaths.list,
    summary: 'The user’s chats, newest first, one per page (`per_page`: that many a page)',
    tags: ['chat'],
    query: ChatListQuerySchema,
    response: paginated(ChatListItemSchema),
  }),
  messages: defineRoute({
    ...chatPaths.messages,
    summary: 'Messages of one of the user’s chats, oldest first: the newest 50, or with `before` (a message id) the 50 before it; fewer than 50 reach the first message',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    query: ChatMessagesQuerySchema,
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
    // The widget sends a message without pictures as JSON.
    multipart: { ...CHAT_UPLOADS, json: true },
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
  regenerate: defineRoute({
    ...chatPaths.regenerate,
    summary: 'A new answer to the chat’s last question (same or another model), streamed like a send and charged like one; the previous answer stays as a variant',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    body: ChatRegenerateBodySchema,
    stream: { events: ChatStreamEvents },
    response: z.null(),
  }),
  edit: defineRoute({
    ...chatPaths.edit,
    summary: 'Sends the user’s last message again as edited, streamed like a send; the message and its answers stay as a variant',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    body: ChatEditBodySchema,
    stream: { events: ChatStreamEvents },
    response: z.null(),
  }),
  variant: defineRoute({
    ...chatPaths.variant,
    summary: 'Shows another variant of a place of the conversation (with its newest continuation); answers the chat’s messages',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    body: z.object({ message_id: IdSchema }),
    response: z.array(ChatMessageSchema),
  }),
  search: defineRoute({
    ...chatPaths.search,
    summary: 'Full-text search (Russian) over the titles and messages of the user’s chats, newest first, at most 30',
    tags: ['chat'],
    query: ChatSearchQuerySchema,
    response: z.object({ hits: z.array(ChatSearchHitSchema), more: z.boolean() }),
  }),
  exportMarkdown: defineRoute({
    ...chatPaths.exportMarkdown,
    summary: 'The chat as a Markdown file: each message with who wrote it (the model’s name) and when',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    raw: true,
    response: z.unknown().meta({ description: 'text/markdown; charset=utf-8 (not JSON), as an attachment' }),
  }),
  estimate: defineRoute({
    ...chatPaths.estimate,
    summary: 'What sending a message will cost in words: the chat’s history and the message as the provider counts them, plus up to the answer’s maximum',
    tags: ['chat'],
    body: ChatEstimateBodySchema,
    response: ChatEstimateSchema,
  }),
  summary: defineRoute({
    ...chatPaths.summary,
    summary: 'Starts a new chat from a short summary of this one: the summary is written by the model (charged as an answer) and is the new chat’s first message; a retry with the same request_id answers the same chat',
    tags: ['chat'],
    params: ChatIdParamsSchema,
    body: ChatSummaryBodySchema,
    response: ChatSummaryResultSchema,
  }),
} as const;
