import { buffer } from 'node:stream/consumers';
import type { ChatEstimate, ChatMessage } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import type { ChatMessageInput } from '../../providers/types.ts';
import { inputTokensBound, inputTokensEstimate, wordsFor } from './chat-pricing.ts';
import type { ChatRun } from './chat-runs.ts';
import { findOwnChat } from './chat.queries.ts';
import { HISTORY_MESSAGES, SYSTEM_MESSAGE, chatMessages, chosenModel, historyLimitOf, startAnswer } from './chat.service.ts';
import { summaryHoldWords } from './chat-summary.service.ts';
import { findChatMessage, historyBound, lastOnPath, messageImages, switchVariant } from './chat-variants.queries.ts';
import { storable } from '../../lib/text.ts';

const notFound = () => new AppError('NOT_FOUND', 'Чат не найден');

async function ownChat(ctx: AppContext, userId: number, chatId: number) {
  const chat = await findOwnChat(ctx.db, userId, chatId);
  if (!chat) throw notFound();
  return chat;
}

/** A stored message's images as the provider gets them (a regenerated question, an edited message keeps them). */
async function imagesOf(ctx: AppContext, messageId: number) {
  const files = await messageImages(ctx.db, messageId);
  const images: { mime: 'image/png' | 'image/jpeg'; data: Buffer }[] = [];
  for (const f of files) {
    const blob = await ctx.storage.get(f.storage_key);
    if (blob) images.push({ mime: f.content_type as 'image/png' | 'image/jpeg', data: await buffer(blob.body) });
  }
  return { ids: files.map((f) => f.id), images };
}

/**
 * A new answer to the chat's last question, with the model chosen now: charged as any answer
 * (its own hold, settled when it ends); the answer it replaces stays as a variant. Only the
 * chat's last message, an answer, is regenerated (`chat_send` checks it again under the chat's lock).
 */
export async function regenerateAnswer(ctx: AppContext, viewer: Viewer, chatId: number, choice: { ai_models_id: number; param?: string | undefined }): Promise<ChatRun> {
  await ownChat(ctx, viewer.id, chatId);
  const last = await lastOnPath(ctx.db, chatId);
  if (last?.status === 'generating') throw new AppError('CHAT_BUSY');
  if (!last || last.role !== 'assistant' || last.parent_id === null) throw new AppError('CHAT_NOT_LAST');
  const question = await findChatMessage(ctx.db, chatId, last.parent_id);
  if (!question) throw new AppError('CHAT_NOT_LAST');
  const { images } = await imagesOf(ctx, question.id);
  return startAnswer(ctx, viewer, {
    mode: 'regenerate',
    chatId,
    targetId: last.id,
    questionId: question.id,
    aiModelsId: choice.ai_models_id,
    param: choice.param,
    message: question.text,
    images,
    uploads: [],
    fileIds: [],
  });
}

/**
 * The user's last message, written again and sent: it and the answers after it stay as a
 * variant, the new message (with the old one's images) is answered and charged as any.
 */
export async function editLastMessage(
  ctx: AppContext,
  viewer: Viewer,
  chatId: number,
  edit: { message_id: number; message: string; ai_models_id: number; param?: string | undefined },
): Promise<ChatRun> {
  await ownChat(ctx, viewer.id, chatId);
  const target = await findChatMessage(ctx.db, chatId, edit.message_id);
  if (!target || target.role !== 'user' || target.off_path) throw new AppError('CHAT_NOT_LAST');
  const { ids, images } = await imagesOf(ctx, target.id);
  return startAnswer(ctx, viewer, {
    mode: 'edit',
    chatId,
    targetId: target.id,
    aiModelsId: edit.ai_models_id,
    param: edit.param,
    message: storable(edit.message),
    images,
    uploads: [],
    fileIds: ids,
  });
}

/** Shows another variant of a place of the conversation; answers the chat's messages then. */
export async function showVariant(ctx: AppContext, userId: number, chatId: number, messageId: number): Promise<ChatMessage[]> {
  const outcome = await ctx.db.transaction().execute((tx) => switchVariant(tx, userId, chatId, messageId));
  if (outcome === 'busy') throw new AppError('CHAT_BUSY');
  if (outcome === 'not_found') throw new AppError('NOT_FOUND', 'Сообщение не найдено');
  return chatMessages(ctx, userId, chatId);
}

/**
 * What a send will cost, in words, as `chat_send` will hold it: the model's instructions, the
 * chat's history (its latest messages with text — as many as staff let the model get —, as bounded
 * for the hold) and the message with its images, plus the longest answer; and what a summary of
 * the chat would hold. The least is a fair estimate of the same input with no
 * answer to speak of; the most is the hold, which the balance must cover.
 */
export async function estimateSend(
  ctx: AppContext,
  userId: number,
  body: { ai_models_id: number; param?: string | undefined; chat_id?: number | undefined; message: string; images: number },
): Promise<ChatEstimate> {
  const { model, maxOutputTokens } = await chosenModel(ctx, body.ai_models_id, body.param);
  if (body.chat_id !== undefined) await ownChat(ctx, userId, body.chat_id);
  // The history as the send will bound it (staff's cap for the model, if any) and, for the summary, the whole window.
  const limit = historyLimitOf(model);
  const none = { bound: 0, estimate: 0, messages: 0 };
  const history = body.chat_id === undefined ? none : await historyBound(ctx.db, body.chat_id, limit);
  const whole = body.chat_id === undefined ? none : limit === HISTORY_MESSAGES ? history : await historyBound(ctx.db, body.chat_id, HISTORY_MESSAGES);
  // Image bytes do not matter to the bound: only how many there are.
  const placeholder = { mime: 'image/png' as const, data: Buffer.alloc(0) };
  const message: ChatMessageInput = { role: 'user', text: storable(body.message), ...(body.images ? { images: Array.from({ length: body.images }, () => placeholder) } : {}) };
  const rate = model.words_per_token;
  const base = inputTokensBound('openai', [SYSTEM_MESSAGE, message]);
  const fair = model.protocol === 'demo' ? inputTokensBound('demo', [SYSTEM_MESSAGE, message]) : inputTokensEstimate(model.protocol, [SYSTEM_MESSAGE, message]);
  const maxWords = wordsFor(base + maxOutputTokens + history.bound, rate);
  return {
    min_words: Math.min(maxWords, wordsFor(fair + history.estimate + 1, rate)),
    max_words: maxWords,
    history_words: wordsFor(history.bound, rate),
    history_messages: history.messages,
    answer_words: wordsFor(maxOutputTokens, rate),
    history_limit: model.history_messages,
    summary_words: whole.messages === 0 ? 0 : summaryHoldWords(rate, maxOutputTokens, whole.bound),
  };
}
