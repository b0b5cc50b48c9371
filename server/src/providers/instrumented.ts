import type { ChatEvent, ChatProvider, ImageProvider, PredictionProvider } from './types.ts';

/** Told of every provider call when it ends: its operation, its seconds, and its error if it failed. */
export type CallObserver = (operation: string, seconds: number, err?: unknown) => void;

const seconds = (start: number) => (performance.now() - start) / 1000;

async function timed<T>(observe: CallObserver, operation: string, call: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    const result = await call();
    observe(operation, seconds(start));
    return result;
  } catch (err) {
    observe(operation, seconds(start), err);
    throw err;
  }
}

/**
 * A chat provider whose calls are timed: a stream from its request to its last event (or its
 * failure, or the consumer leaving it), without a wrapper generator between the provider and the
 * consumer — each event passes through one `then`.
 */
export function instrumentChat(inner: ChatProvider, observe: CallObserver): ChatProvider {
  return {
    streamChat(req) {
      return {
        [Symbol.asyncIterator]() {
          const start = performance.now();
          const events = inner.streamChat(req)[Symbol.asyncIterator]();
          let ended = false;
          const end = (err?: unknown) => {
            if (ended) return;
            ended = true;
            observe('chat_stream', seconds(start), err);
          };
          return {
            next: () =>
              events.next().then(
                (result: IteratorResult<ChatEvent>) => {
                  if (result.done) end();
                  return result;
                },
                (err: unknown) => {
                  end(err);
                  throw err;
                },
              ),
            return: (value?: unknown) => {
              end();
              return events.return ? events.return(value) : Promise.resolve({ done: true as const, value: undefined });
            },
          };
        },
      };
    },
    completeChat: (req) => timed(observe, 'chat', () => inner.completeChat(req)),
  };
}

export function instrumentImages(inner: ImageProvider, observe: CallObserver): ImageProvider {
  return {
    generate: (req) => timed(observe, 'image_generate', () => inner.generate(req)),
    edit: (req) => timed(observe, 'image_edit', () => inner.edit(req)),
  };
}

export function instrumentPredictions(inner: PredictionProvider, observe: CallObserver): PredictionProvider {
  return {
    create: (req) => timed(observe, 'prediction_create', () => inner.create(req)),
    get: (id, opts) => timed(observe, 'prediction_get', () => inner.get(id, opts)),
    cancel: (id, opts) => timed(observe, 'prediction_cancel', () => inner.cancel(id, opts)),
    download: (url, opts) => timed(observe, 'download', () => inner.download(url, opts)),
    verifyWebhook: (headers, rawBody, secret) => inner.verifyWebhook(headers, rawBody, secret),
    parseWebhook: (rawBody) => inner.parseWebhook(rawBody),
  };
}
