import { CHAT_LIMITS, HISTORY_MAX_MESSAGES, type ChatListItem, type ChatMessage, type ChatModel } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import { paged } from '../../lib/pagination.ts';
import type { ChatMessageInput } from '../../providers/types.ts';
import { DEMO_LABEL } from '../../providers/demo/demo.provider.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { listActiveModels } from '../ai/ai.queries.ts';
import { chooseParam, readModelSetting } from '../ai/model-setting.ts';
import { deleteFile, storeFiles } from '../files/files.service.ts';
import type { Executor } from '../../db/database.ts';
import { inputTokensBound, inputTokensEstimate, outputTokensEstimate, wordsFor } from './chat-pricing.ts';
import { firstChars, storable } from '../../lib/text.ts';
import type { ChatRun } from './chat-runs.ts';
import {
  abandonedAnswers,
  chatsFrom,
  chatClose,
  chatSend,
  countChats,
  deleteChat,
  findOwnChat,
  generatingAnswer,
  listMessageFiles,
  listMessages,
  orphanChatFiles,
  renameChat,
  type ChatHistoryRow,
  type ChatSendOutcome,
  type ChatSendParams,
} from './chat.queries.ts';

/** What the model is told first, in every conversation. */
export const SYSTEM_PROMPT = 'Ты — полезный ассистент сервиса «Нейростудия». Отвечай на языке пользователя (по умолчанию — на русском), используй Markdown для списков, таблиц и кода.';
/** The conversation sent with a new message: at most this many earlier messages (fewer where staff capped the model's)… */
export const HISTORY_MESSAGES = HISTORY_MAX_MESSAGES;
/** …and at most this many characters of them (the newest kept). */
const HISTORY_CHARS = 24_000;

/** How many of the chat's latest messages `model` gets with a new one: staff's cap for it, or the service's window. */
export const historyLimitOf = (model: { history_messages: number | null }) => Math.min(model.history_messages ?? HISTORY_MESSAGES, HISTORY_MESSAGES);
const TITLE_LENGTH = 100;

const iso = (d: Date) => d.toISOString();
const MAX_MODEL_ID = 2_147_483_647;
const fileUrl = (id: number) => `/api/new/files/${String(id)}`;

/** Chat models with their parameter choices and prices (seed §3: id or ai_models_id, name, setting). */
export async function chatModels(ctx: AppContext): Promise<ChatModel[]> {
  const rows = await listActiveModels(ctx.db, ['chat']);
  return rows.map((m) => {
    const setting = readModelSetting(m.setting);
    return {
      id: m.id,
      ai_models_id: m.id,
      name: m.name,
      setting: { model: { params: setting.model.params.map((p) => ({ value: p.value, label: p.label })) } },
      provider: m.protocol === 'demo' ? DEMO_LABEL : m.connection_name,
      words_per_1000_tokens: Math.round(m.words_per_token * 1000 * 100) / 100,
      max_words: wordsFor(m.max_output_tokens, m.words_per_token),
    };
  });
}

/** A page of the user's chats, newest activity first: `perPage` of them (the seed's one by default); `last_page` counts such pages. */
export function listChats(ctx: AppContext, userId: number, page: number, perPage = 1): Promise<{ data: ChatListItem[]; last_page: number }> {
  return paged(
    () => countChats(ctx.db, userId),
    async (offset, limit) => (await chatsFrom(ctx.db, userId, offset, limit)).map((chat) => ({ id: chat.id, text: chat.title, updated_at: iso(chat.updated_at) })),
    page,
    perPage,
  );
}

/**
 * A page of the viewer's chat, oldest first: its newest messages, or those before the message
 * `before` (at most `CHAT_LIMITS.messagesPage`); another user's chat is not found.
 */
export async function chatMessages(ctx: AppContext, userId: number, chatId: number, before?: number): Promise<ChatMessage[]> {
  const chat = await findOwnChat(ctx.db, userId, chatId);
  if (!chat) throw new AppError('NOT_FOUND', 'Чат не найден');
  const messages = (await listMessages(ctx.db, chatId, CHAT_LIMITS.messagesPage, before)).reverse();
  const files = messages.length ? await listMessageFiles(ctx.db, messages.map((m) => m.id)) : [];
  const images = new Map<number, ChatMessage['images']>();
  for (const f of files) {
    const list = images.get(f.message_id) ?? [];
    list.push({ id: f.id, url: fileUrl(f.id), name: f.original_name });
    images.set(f.message_id, list);
  }
  return messages.map((m) => ({
    id: m.id,
    role: m.role,
    text: m.text,
    model: m.role === 'assistant' ? m.model_name : null,
    status: m.status,
    words: m.words,
    images: images.get(m.id) ?? [],
    created_at: iso(m.created_at),
    ...(m.variants.length > 1 ? { variants: m.variants.map(Number) } : {}),
  }));
}

export async function renameOwnChat(ctx: AppContext, userId: number, chatId: number, title: string): Promise<ChatListItem> {
  const chat = await renameChat(ctx.db, userId, chatId, storable(title));
  if (!chat) throw new AppError('NOT_FOUND', 'Чат не найден');
  return { id: chat.id, text: chat.title, updated_at: iso(chat.updated_at) };
}

/**
 * Deletes the viewer's chat: an answer being written is stopped first (and charged for what it
 * wrote), then the messages and their images. An answer written by another process is stopped
 * there; the chat is hidden at once and goes when that process has closed (and charged) it.
 */
export async function deleteOwnChat(ctx: AppContext, userId: number, chatId: number): Promise<void> {
  const chat = await findOwnChat(ctx.db, userId, chatId);
  if (!chat) throw new AppError('NOT_FOUND', 'Чат не найден');
  const answer = await generatingAnswer(ctx.db, chatId);
  if (answer) await ctx.chatRuns.stop(answer.id);
  const { deleted, fileIds } = await deleteChat(ctx.db, userId, chatId);
  if (!deleted) throw new AppError('NOT_FOUND', 'Чат не найден');
  for (const id of fileIds) {
    // A blob that cannot be deleted now is left to the cleanup job (its row is then an orphan).
    await deleteFile(ctx.db, ctx.storage, id).catch((err: unknown) => ctx.log.warn({ err, fileId: id }, 'could not delete a chat image'));
  }
}

/** Stops the answer being written in the viewer's chat; false when none is. */
export async function stopChatAnswer(ctx: AppContext, userId: number, chatId: number): Promise<boolean> {
  const chat = await findOwnChat(ctx.db, userId, chatId);
  if (!chat) throw new AppError('NOT_FOUND', 'Чат не найден');
  const answer = await generatingAnswer(ctx.db, chatId);
  if (!answer) return false;
  await ctx.chatRuns.stop(answer.id);
  return true;
}

/** A message to send, as the route read it. */
export interface SendInput {
  ai_models_id: number;
  param?: string | undefined;
  message: string;
  chat_id?: number | undefined;
  /** In field order: `image_example`, then `image_example_2`. */
  images: UploadedFile[];
}

/** A chat's title from its first message: one line, at most 100 characters. */
const titleOf = (message: string) => {
  const line = message.replace(/\s+/g, ' ').trim();
  const cut = firstChars(line, TITLE_LENGTH - 1);
  return cut === line ? line : `${cut}…`;
};

/** The earlier messages sent with a new one: the newest `chat_send` read (newest first), within the limit of characters, oldest first. */
export function withinLimit(history: ChatHistoryRow[]): ChatMessageInput[] {
  const kept: ChatMessageInput[] = [];
  let chars = 0;
  for (const row of history) {
    chars += row.text.length;
    if (chars > HISTORY_CHARS) break;
    kept.unshift({ role: row.role, text: row.text });
  }
  return kept;
}

/** The chat model and parameter a send asks for, or the field error it answers. */
export async function chosenModel(ctx: AppContext, aiModelsId: number, wanted: string | undefined) {
  // Model ids are 32-bit in the database: a larger one names no model.
  const model = aiModelsId <= MAX_MODEL_ID ? await ctx.models.find(ctx.db, aiModelsId, ['chat']) : undefined;
  if (!model) throw fieldError('ai_models_id', 'Эта модель недоступна. Выберите другую');
  const param = chooseParam(readModelSetting(model.setting), wanted);
  if (param === null) throw fieldError('param', 'Выберите параметр из списка');
  return { model, param, maxOutputTokens: Math.min(model.max_output_tokens, param?.max_output_tokens ?? Infinity) };
}

/** The messages of a chat sent with every request, whatever the chat: the model's instructions. */
export const SYSTEM_MESSAGE: ChatMessageInput = { role: 'system', text: SYSTEM_PROMPT };

/** What an answer is asked for: a new message, a regenerated answer or an edited message. */
export interface AnswerRequest {
  mode: NonNullable<ChatSendParams['mode']>;
  chatId?: number | undefined;
  targetId?: number | undefined;
  questionId?: number | undefined;
  aiModelsId: number;
  param?: string | undefined;
  /** The question the answer is to: the message sent, edited, or asked again. */
  message: string;
  /** Its images as the provider gets them. */
  images: { mime: 'image/png' | 'image/jpeg'; data: Buffer }[];
  /** New images to store with the message (a send). */
  uploads: UploadedFile[];
  /** Stored images the new message keeps (an edit). */
  fileIds: number[];
}

/**
 * Starts an answer: in one statement (`chat_send`; in a transaction with the images it stores)
 * the chat, the user's message, the answer's row and the hold of the most it may cost are
 * stored; then the answer is written in the background. Too few words refuse the whole (402,
 * nothing stored).
 */
export async function startAnswer(ctx: AppContext, viewer: Viewer, req: AnswerRequest): Promise<ChatRun> {
  const { model, param, maxOutputTokens } = await chosenModel(ctx, req.aiModelsId, req.param);
  const newMessage: ChatMessageInput = { role: 'user', text: req.message, ...(req.images.length ? { images: req.images } : {}) };
  const params: ChatSendParams = {
    user_id: viewer.id,
    chat_id: req.chatId,
    mode: req.mode,
    target_id: req.targetId,
    question_id: req.questionId,
    title: titleOf(req.message),
    model_id: model.id,
    model_name: model.name,
    param: param?.value ?? null,
    message: req.message,
    rate: model.words_per_token,
    // The bound of real models (the hold's worst case, whatever the protocol).
    base_tokens: inputTokensBound('openai', [SYSTEM_MESSAGE, newMessage]) + maxOutputTokens,
    history_limit: historyLimitOf(model),
    file_ids: req.fileIds,
    max_answers: CHAT_LIMITS.answersPerUser,
  };
  const send = async (db: Executor, fileIds: number[]) => accepted(await chatSend(db, { ...params, file_ids: [...params.file_ids, ...fileIds] }));
  // New images are stored with their rows in one transaction with the send (their blobs deleted
  // if it is refused). Another user's chat is refused by chat_send.
  const stored = req.uploads.length
    ? await storeFiles(ctx.db, ctx.storage, async (tx, save) => {
        const ids: number[] = [];
        for (const image of req.uploads) ids.push((await save({ ownerId: viewer.id, purpose: 'chat_attachment', body: image.data, contentType: image.mime, originalName: image.name })).id);
        return send(tx, ids);
      })
    : await send(ctx.db, []);
  const messages = [SYSTEM_MESSAGE, ...withinLimit(stored.history), newMessage];

  return ctx.chatRuns.start({
    messageId: stored.answer_id,
    userMessageId: stored.user_message_id,
    chatId: stored.chat_id,
    userId: viewer.id,
    modelName: model.name,
    connection: { id: model.connection_id, name: model.connection_name, protocol: model.protocol, base_url: model.base_url, api_key_env: model.api_key_env, timeout_seconds: model.timeout_seconds, updated_at: model.connection_updated_at },
    protocol: model.protocol,
    request: {
      model: model.provider_model,
      messages,
      maxOutputTokens,
      ...(param?.temperature === undefined ? {} : { temperature: param.temperature }),
      ...(param?.provider ? { params: param.provider } : {}),
    },
    rate: model.words_per_token,
    hold: stored.hold_id === null ? null : { id: stored.hold_id, userId: viewer.id, kind: 'words', amount: stored.hold_amount, status: 'held' },
    inputTokens: inputTokensEstimate(model.protocol, messages),
  });
}

/** Sends a message after the chat's last (or starts a chat). */
export function sendMessage(ctx: AppContext, viewer: Viewer, sent: SendInput): Promise<ChatRun> {
  return startAnswer(ctx, viewer, {
    mode: 'send',
    chatId: sent.chat_id,
    aiModelsId: sent.ai_models_id,
    param: sent.param,
    message: storable(sent.message),
    images: sent.images.map((f) => ({ mime: f.mime as 'image/png' | 'image/jpeg', data: f.data })),
    uploads: sent.images,
    fileIds: [],
  });
}

/** A refused send as the error it answers. */
function accepted(outcome: ChatSendOutcome): Extract<ChatSendOutcome, { status: 'ok' }> {
  switch (outcome.status) {
    case 'ok':
      return outcome;
    case 'not_found':
      throw new AppError('NOT_FOUND', 'Чат не найден');
    case 'busy':
      throw new AppError('CHAT_BUSY');
    case 'too_many':
      throw new AppError('ANSWERS_BUSY');
    case 'insufficient':
      throw new AppError('INSUFFICIENT_TOKENS');
    case 'not_last':
      throw new AppError('CHAT_NOT_LAST');
  }
}

/**
 * An answer left `generating` this long without a save was abandoned (its process died): four
 * signs of life missed (`ALIVE_EVERY_MS`), so a database that stalls for half a minute takes no
 * live answer for a dead one, and a crash's answers are closed (their words back) within about
 * a minute and a half.
 */
export const ABANDONED_AFTER_MS = 45_000;

/**
 * Closes answers whose process died while writing them: kept as far as they were saved, charged
 * for that much (stopped) or not at all (failed, nothing written), the rest of the hold returned.
 * Also deletes chat images left without a message. Answers how many answers it closed.
 */
export async function closeAbandonedAnswers(ctx: AppContext): Promise<number> {
  const rows = await abandonedAnswers(ctx.db, ABANDONED_AFTER_MS / 1000);
  let closed = 0;
  for (const row of rows) {
    if (ctx.chatRuns.get(row.id)) continue;
    const charge = row.text ? wordsFor(outputTokensEstimate(row.protocol, row.text), row.words_per_token ?? 1) : 0;
    const words = Math.min(charge, row.hold_amount ?? 0);
    const { closed: done } = await chatClose(ctx.db, {
      message_id: row.id,
      user_id: row.user_id,
      text: row.text,
      status: row.text ? 'stopped' : 'failed',
      words,
      input_tokens: null,
      output_tokens: null,
      error: 'abandoned: the process writing it stopped',
    });
    if (done) closed++;
  }
  for (const file of await orphanChatFiles(ctx.db)) {
    await deleteFile(ctx.db, ctx.storage, file.id).catch((err: unknown) => ctx.log.warn({ err, fileId: file.id }, 'could not delete an orphaned chat image'));
  }
  return closed;
}
