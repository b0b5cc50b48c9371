import type { FastifyInstance } from 'fastify';
import { ChatStreamEvents, chatRoutes, type ChatSendResult } from '@app/contracts';
import type { UploadedFile } from '../../lib/multipart.ts';
import { mountRoute } from '../../lib/routes.ts';
import { mediaToWire, type RawBalances } from '../wallet/wallet.queries.ts';
import type { ChatRun } from './chat-runs.ts';
import type { SseSink } from '../../lib/sse.ts';
import { chatMessages, chatModels, deleteOwnChat, listChats, renameOwnChat, sendMessage, stopChatAnswer } from './chat.service.ts';
import { editLastMessage, estimateSend, regenerateAnswer, showVariant } from './chat-variants.service.ts';
import { exportChatMarkdown, searchOwnChats } from './chat-search.service.ts';
import { summarizeChat } from './chat-summary.service.ts';
import { contentDisposition } from '../files/file-names.ts';

type ChatFiles = Partial<Record<'image_example' | 'image_example_2', UploadedFile[]>> | undefined;

/** The message's images in the seed's field order. */
const imagesOf = (files: ChatFiles): UploadedFile[] => [...(files?.image_example ?? []), ...(files?.image_example_2 ?? [])];

/** The reply of a finished answer, with the balances after its charge. */
function sendResult(run: ChatRun, outcome: { status: 'done' | 'stopped'; text: string; words: number; balances: RawBalances }): ChatSendResult {
  return {
    chat_id: run.plan.chatId,
    message: outcome.text,
    model: run.plan.modelName,
    message_id: run.plan.messageId,
    status: outcome.status,
    words: outcome.words,
    balances: { words: outcome.balances.words, media: mediaToWire(outcome.balances.media) },
  };
}

export default async function chatRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  mountRoute(app, chatRoutes.models, () => chatModels(ctx));
  mountRoute(app, chatRoutes.list, ({ viewer, query }) => listChats(ctx, viewer.id, query.page, query.per_page));
  mountRoute(app, chatRoutes.messages, ({ viewer, params, query }) => chatMessages(ctx, viewer.id, params.id, query.before));
  mountRoute(app, chatRoutes.rename, ({ viewer, params, body }) => renameOwnChat(ctx, viewer.id, params.id, body.title));
  mountRoute(app, chatRoutes.remove, async ({ viewer, params }) => {
    await deleteOwnChat(ctx, viewer.id, params.id);
    return { deleted: true as const };
  });
  mountRoute(app, chatRoutes.stop, async ({ viewer, params }) => ({ stopped: await stopChatAnswer(ctx, viewer.id, params.id) }));

  // The whole answer at once; a client that goes away does not stop it.
  mountRoute(app, chatRoutes.send, async ({ viewer, body, files }) => {
    const run = await sendMessage(ctx, viewer, { ...body, images: imagesOf(files) });
    const outcome = await run.outcome;
    if (outcome.status === 'failed') throw outcome.error;
    return sendResult(run, outcome);
  });

  // The answer as it is written. A refusal (402, a bad field) is an ordinary error reply; a
  // provider failure after `start` is an `error` event. A client that goes away stops listening,
  // not the answer: it completes and is stored.
  mountRoute(app, chatRoutes.sendStream, async ({ viewer, body, files, stream }) => streamAnswer(await sendMessage(ctx, viewer, { ...body, images: imagesOf(files) }), stream));
  mountRoute(app, chatRoutes.regenerate, async ({ viewer, params, body, stream }) => streamAnswer(await regenerateAnswer(ctx, viewer, params.id, body), stream));
  mountRoute(app, chatRoutes.edit, async ({ viewer, params, body, stream }) => streamAnswer(await editLastMessage(ctx, viewer, params.id, body), stream));
  mountRoute(app, chatRoutes.variant, ({ viewer, params, body }) => showVariant(ctx, viewer.id, params.id, body.message_id));
  mountRoute(app, chatRoutes.search, ({ viewer, query }) => searchOwnChats(ctx, viewer.id, query.q));
  mountRoute(app, chatRoutes.estimate, ({ viewer, body }) => estimateSend(ctx, viewer.id, body));
  mountRoute(app, chatRoutes.summary, ({ viewer, params, body }) => summarizeChat(ctx, viewer, params.id, body));
  mountRoute(app, chatRoutes.exportMarkdown, async ({ viewer, params, reply }) => {
    const { fileName, body } = await exportChatMarkdown(ctx, viewer.id, params.id);
    return reply.headers({ 'content-type': 'text/markdown; charset=utf-8', 'content-disposition': contentDisposition('attachment', fileName), 'cache-control': 'no-store' }).send(body);
  });
}

/** Writes an answer's events: `start`, what it has written so far, each piece, then `done` (or the failure). */
async function streamAnswer(run: ChatRun, stream: SseSink<{ events: typeof ChatStreamEvents }>): Promise<void> {
  stream.send('start', { chat_id: run.plan.chatId, message_id: run.plan.messageId, model: run.plan.modelName, user_message_id: run.plan.userMessageId });
  if (run.text) stream.send('delta', { text: run.text });
  const off = run.onDelta((text) => stream.send('delta', { text }));
  const left = new Promise<null>((resolve) => {
    if (stream.signal.aborted) resolve(null);
    else stream.signal.addEventListener('abort', () => resolve(null), { once: true });
  });
  const outcome = await Promise.race([run.outcome, left]);
  off();
  if (!outcome) return;
  if (outcome.status === 'failed') throw outcome.error;
  stream.send('done', sendResult(run, outcome));
}
