import { accountEndpoints, billingEndpoints, chatEndpoints, type RequestOf, type StreamEventOf } from '@app/contracts/browser';
import { routeCall } from '@app/kit';
import { stream } from '@app/kit/stream';

type SendStreamRoute = NonNullable<(typeof chatEndpoints.sendStream)['contract']>;
/** The request of a streamed send: the message's fields and its images. */
export type ChatStreamRequest = RequestOf<SendStreamRoute>;
/** One event of a streamed answer: `start`, `delta` or `done`. */
export type ChatStreamEvent = StreamEventOf<SendStreamRoute>;
/** Sends a message and calls `onEvent` for each event; rejects with an ApiError (failed reply or `error` event). */
export type ChatStreamFn = (request: ChatStreamRequest, options: { onEvent: (event: ChatStreamEvent) => void; signal?: AbortSignal }) => Promise<void>;
/** A regenerate or an edit: the same events as a send. */
export type ChatRegenerateRequest = RequestOf<NonNullable<(typeof chatEndpoints.regenerate)['contract']>>;
export type ChatEditRequest = RequestOf<NonNullable<(typeof chatEndpoints.edit)['contract']>>;
type StreamOptions = Parameters<ChatStreamFn>[1];

/** The same call with its fields as JSON: what a message without pictures is sent as (the server skips the multipart parser). */
const sendStreamJson = { ...chatEndpoints.sendStream, multipart: undefined };
const hasFiles = (files: ChatStreamRequest['files']) => Object.values(files ?? {}).some((f) => (Array.isArray(f) ? f.length > 0 : Boolean(f)));

/** The calls of the chat widget (tests and stories pass fakes with the same routes). */
export const chatApi = {
  /** GET /api/new/chat?page=n: one chat per page, newest first. */
  list: routeCall(chatEndpoints.list),
  /** GET /api/new/chat/:id: the messages of a chat, oldest first. */
  messages: routeCall(chatEndpoints.messages),
  /** GET /api/new/chat_models */
  models: routeCall(chatEndpoints.models),
  /** POST /api/new/chat/:id/stop: the answer being written ends with `done` status `stopped`. */
  stop: routeCall(chatEndpoints.stop),
  /** PATCH /api/new/chat/:id {title} */
  rename: routeCall(chatEndpoints.rename),
  /** DELETE /api/new/chat/:id */
  remove: routeCall(chatEndpoints.remove),
  /** GET /api/new/user: the balances, shared with the other widgets of the page. */
  user: routeCall(accountEndpoints.user),
  /** GET /api/new/subscribe/check: whether the user has a plan to buy packages to (read when too few words). */
  check: routeCall(billingEndpoints.subscribeCheck),
  /** POST /api/new/chat/stream (multipart with pictures, JSON without; Server-Sent Events start, delta…, done). */
  send: ((request, options) => (hasFiles(request.files) ? stream(chatEndpoints.sendStream, request, options) : stream(sendStreamJson, { body: request.body }, options))) as ChatStreamFn,
  /** POST /api/new/chat/:id/regenerate (Server-Sent Events as a send): a new answer to the last question. */
  regenerate: (request: ChatRegenerateRequest, options: StreamOptions) => stream(chatEndpoints.regenerate, request, options),
  /** POST /api/new/chat/:id/edit (Server-Sent Events as a send): the user's last message sent again as edited. */
  edit: (request: ChatEditRequest, options: StreamOptions) => stream(chatEndpoints.edit, request, options),
  /** POST /api/new/chat/:id/variant {message_id}: another variant shown; answers the chat's messages. */
  variant: routeCall(chatEndpoints.variant),
  /** GET /api/new/chat/search?q= */
  search: routeCall(chatEndpoints.search),
  /** POST /api/new/chat/estimate: what a send will cost, the history counted. */
  estimate: routeCall(chatEndpoints.estimate),
  /** POST /api/new/chat/:id/summary {request_id}: a new chat started from a short summary of this one. */
  summary: routeCall(chatEndpoints.summary),
};

export type ChatApi = typeof chatApi;
