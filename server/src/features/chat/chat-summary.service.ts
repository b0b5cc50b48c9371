import { CHAT_LIMITS, type ChatSummaryResult } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { firstChars } from '../../lib/text.ts';
import type { ChatMessageInput } from '../../providers/types.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { getRawBalances, mediaToWire, placeHold, type HoldRef } from '../wallet/wallet.queries.ts';
import { inputTokensBound, inputTokensEstimate, wordsFor } from './chat-pricing.ts';
import type { AnswerOutcome, ChatRun } from './chat-runs.ts';
import { deleteChat } from './chat.queries.ts';
import { HISTORY_MESSAGES, chosenModel, withinLimit } from './chat.service.ts';
import { chatOfSummaryRequest, chatOfSummaryRequestById, historyWithBounds, insertSummaryChat, lockSummarySource, nextMessageId, ownChatWithModel } from './chat-summary.queries.ts';

/** What the model is told when it writes a summary. */
const SUMMARY_SYSTEM: ChatMessageInput = {
  role: 'system',
  text: 'Ты составляешь краткое содержание переписки пользователя с ассистентом, чтобы продолжить её в новом чате. Пиши на языке переписки (по умолчанию — на русском), сжато, списком: главные факты, решения, договорённости и открытые вопросы; сохрани важные детали — имена, числа, код. Не добавляй ничего от себя.',
};
/** The request after the conversation. */
const SUMMARY_ASK: ChatMessageInput = { role: 'user', text: 'Составь краткое содержание нашего разговора выше.' };
/** The longest summary, in tokens (the model's own limit, if smaller, wins). */
export const SUMMARY_MAX_TOKENS = 600;

/** The new chat's title, from the chat summarised. */
const titleOf = (title: string) => firstChars(`Продолжение: ${title}`, 100);
/** The summary's first line, which the user and the model both read. */
const headingOf = (title: string) => `**Краткое содержание предыдущего чата «${title}»**\n\n`;

/** The tokens a summary holds besides the history: the instructions, the request and the longest summary. */
const baseTokens = (maxOutputTokens: number) => inputTokensBound('openai', [SUMMARY_SYSTEM, SUMMARY_ASK]) + Math.min(maxOutputTokens, SUMMARY_MAX_TOKENS);

/** The most a summary of a history bounded by `historyTokens` holds with a model of `rate` (the estimate shows it before the click). */
export const summaryHoldWords = (rate: number, maxOutputTokens: number, historyTokens: number) => wordsFor(baseTokens(maxOutputTokens) + historyTokens, rate);

/**
 * Starts a new chat from a short summary of the viewer's chat `chatId`: the summary is written by
 * the model chosen (the chat's own when none is given), held and charged as an answer (its line of
 * the balance history says it was a summary) and waited for; the new chat's first message is it.
 * The same `request_id` again answers the chat it made, charging nothing more. A failed summary
 * gives its words back and leaves no chat behind.
 */
export async function summarizeChat(ctx: AppContext, viewer: Viewer, chatId: number, body: { request_id: string; ai_models_id?: number | undefined; param?: string | undefined }): Promise<ChatSummaryResult> {
  const again = await chatOfSummaryRequest(ctx.db, viewer.id, body.request_id);
  if (again) return madeBefore(ctx, viewer.id, again);
  const source = await ownChatWithModel(ctx.db, viewer.id, chatId);
  if (!source) throw new AppError('NOT_FOUND', 'Чат не найден');
  const { model, param, maxOutputTokens } = await chosenModel(ctx, body.ai_models_id ?? source.model_id ?? 0, body.param);
  const heading = headingOf(source.title);

  const started = await ctx.db.transaction().execute(async (tx) => {
    const state = await lockSummarySource(tx, viewer.id, chatId, CHAT_LIMITS.answersPerUser);
    // A second click that waited for the first's lock finds its chat.
    const made = await chatOfSummaryRequest(tx, viewer.id, body.request_id);
    if (made) return { kind: 'made' as const, made };
    if (state === 'not_found') throw new AppError('NOT_FOUND', 'Чат не найден');
    if (state === 'busy') throw new AppError('CHAT_BUSY');
    if (state === 'too_many') throw new AppError('ANSWERS_BUSY');
    const history = await historyWithBounds(tx, chatId, HISTORY_MESSAGES);
    if (history.length === 0) throw new AppError('CHAT_EMPTY');
    const amount = summaryHoldWords(model.words_per_token, maxOutputTokens, history.reduce((sum, h) => sum + h.bound, 0));
    const messageId = await nextMessageId(tx);
    // Too few words: the hold refuses (402) and the transaction leaves nothing behind.
    const hold: HoldRef | null =
      amount > 0 ? await placeHold(tx, { userId: viewer.id, kind: 'words', amount, idempotencyKey: `chat-summary:${String(messageId)}`, refType: 'chat_summary', refId: messageId }) : null;
    const newChatId = await insertSummaryChat(tx, {
      userId: viewer.id,
      title: titleOf(source.title),
      sourceId: chatId,
      requestId: body.request_id,
      modelId: model.id,
      modelName: model.name,
      param: param?.value ?? null,
      messageId,
      holdId: hold?.id ?? null,
      text: heading,
    });
    return { kind: 'started' as const, newChatId, messageId, hold, history };
  });
  if (started.kind === 'made') return madeBefore(ctx, viewer.id, started.made);

  const messages = [SUMMARY_SYSTEM, ...withinLimit(started.history), SUMMARY_ASK];
  const run = ctx.chatRuns.start({
    messageId: started.messageId,
    userMessageId: started.messageId,
    chatId: started.newChatId,
    userId: viewer.id,
    modelName: model.name,
    connection: { id: model.connection_id, name: model.connection_name, protocol: model.protocol, base_url: model.base_url, api_key_env: model.api_key_env, timeout_seconds: model.timeout_seconds, updated_at: model.connection_updated_at },
    protocol: model.protocol,
    request: {
      model: model.provider_model,
      messages,
      maxOutputTokens: Math.min(maxOutputTokens, SUMMARY_MAX_TOKENS),
      ...(param?.temperature === undefined ? {} : { temperature: param.temperature }),
      ...(param?.provider ? { params: param.provider } : {}),
    },
    rate: model.words_per_token,
    hold: started.hold,
    inputTokens: inputTokensEstimate(model.protocol, messages),
    heading,
  });
  return finished(ctx, viewer.id, run, titleOf(source.title));
}

/** The reply once the summary is written; a failed one takes its chat with it. */
async function finished(ctx: AppContext, userId: number, run: ChatRun, title: string): Promise<ChatSummaryResult> {
  const outcome: AnswerOutcome = await run.outcome;
  if (outcome.status === 'failed') {
    await deleteChat(ctx.db, userId, run.plan.chatId);
    throw outcome.error;
  }
  return { chat_id: run.plan.chatId, title, message_id: run.plan.messageId, status: outcome.status, words: outcome.words, balances: { words: outcome.balances.words, media: mediaToWire(outcome.balances.media) } };
}

/** How long a repeated request waits for the summary its first one is writing (then it answers it `generating`). */
const WAIT_FOR_FIRST_MS = 60_000;

type Made = { chat_id: number; title: string; message_id: number; status: 'done' | 'generating' | 'stopped' | 'failed'; words: number };

/**
 * A request already made: its chat once its summary is written — waited for here when this
 * process writes it, else read again until it is (the first request may have committed its chat
 * and not yet started writing, or another process writes it).
 */
async function madeBefore(ctx: AppContext, userId: number, first: Made): Promise<ChatSummaryResult> {
  let made = first;
  const until = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const run = ctx.chatRuns.get(made.message_id);
    if (run) return finished(ctx, userId, run, made.title);
    if (made.status !== 'generating' || Date.now() > until) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await chatOfSummaryRequestById(ctx.db, userId, made.chat_id);
    if (!now) throw new AppError('AI_REQUEST_FAILED');
    made = now;
  }
  if (made.status === 'failed') throw new AppError('AI_REQUEST_FAILED');
  const balances = await getRawBalances(ctx.db, userId);
  return { chat_id: made.chat_id, title: made.title, message_id: made.message_id, status: made.status, words: made.words, balances: { words: balances.words, media: mediaToWire(balances.media) } };
}
