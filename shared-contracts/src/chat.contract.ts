import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { chatPaths } from './chat.browser.ts';
import { IdSchema } from './fields.ts';
import { PageQuerySchema, paginated } from './envelope.ts';

export * from './chat.browser.ts';

export const ChatListItemSchema = z.object({ id: z.number().int(), text: z.string() });
export const ChatMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  model: z.string().nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatModelParamSchema = z.object({ value: z.string(), label: z.string() });
export const ChatModelSchema = z.object({
  id: z.number().int(),
  ai_models_id: z.number().int(),
  name: z.string(),
  /** `{model: {params: [...]}}` (seed §3: an object or a JSON string). */
  setting: z.union([z.string(), z.object({ model: z.object({ params: z.array(ChatModelParamSchema) }) })]),
});
export type ChatModel = z.infer<typeof ChatModelSchema>;

export const ChatSendFieldsSchema = z.object({
  ai_models_id: IdSchema,
  param: z.string().max(200).optional(),
  message: z.string({ error: 'Введите сообщение' }).trim().min(1, 'Введите сообщение').max(20000, 'Сообщение слишком длинное'),
  chat_id: z.optional(IdSchema),
});

export const ChatSendResultSchema = z.object({
  chat_id: z.number().int(),
  message: z.string(),
  model: z.string(),
});

export const chatRoutes = {
  list: defineRoute({
    ...chatPaths.list,
    summary: 'The user’s chats, one per page',
    tags: ['chat'],
    query: PageQuerySchema,
    response: paginated(ChatListItemSchema),
  }),
  messages: defineRoute({
    ...chatPaths.messages,
    summary: 'Messages of one chat',
    tags: ['chat'],
    params: z.object({ id: IdSchema }),
    response: z.array(ChatMessageSchema),
  }),
  send: defineRoute({
    ...chatPaths.send,
    multipart: { files: { image_example: { accept: ['png', 'jpeg'], maxBytes: 10 * 1024 * 1024 }, image_example_2: { accept: ['png', 'jpeg'], maxBytes: 10 * 1024 * 1024 } }, maxFiles: 2, maxTotalBytes: 20 * 1024 * 1024 },
    summary: 'Sends a message (multipart: ai_models_id, param, message, chat_id, image_example, image_example_2)',
    tags: ['chat'],
    body: ChatSendFieldsSchema,
    response: ChatSendResultSchema,
  }),
  models: defineRoute({
    ...chatPaths.models,
    summary: 'Chat models with their parameter choices',
    tags: ['chat'],
    response: z.array(ChatModelSchema),
  }),
} as const;

