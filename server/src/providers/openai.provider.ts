import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, toFile } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ImageEditParamsNonStreaming, ImageGenerateParamsNonStreaming, ImagesResponse } from 'openai/resources/images';
import { Deadline, downloadFile, errorFromStatus, privateAddressError, sniffImageMime } from './provider-http.ts';
import { defaultProviderNetwork, type ProviderNetwork } from './provider-network.ts';
import { providerMessage, streamChunks } from './openai-stream.ts';
import {
  ProviderError,
  type ChatCompletion,
  type ChatEvent,
  type ChatMessageInput,
  type ChatProvider,
  type ChatRequest,
  type GeneratedImage,
  type ImageEditRequest,
  type ImageGenerateRequest,
  type ImageMime,
  type ImageProvider,
  type ImageResult,
  type TokenUsage,
  usageOf,
} from './types.ts';

/** One connection to an OpenAI-compatible API (OpenAI, OpenRouter, vLLM, Ollama, LocalAI…). */
export interface OpenAiConnection {
  /** The API's base, `/v1` included: `https://api.openai.com/v1`, `https://openrouter.ai/api/v1`, `http://vllm:8000/v1`. */
  baseUrl: string;
  apiKey: string;
  /** A chat call, or a stream until its first byte (default 60 s). */
  timeoutMs?: number;
  /** Longest silence between two chunks of a stream (default 30 s). */
  streamIdleTimeoutMs?: number;
  /** An image generation or edit (default 3 minutes). */
  imageTimeoutMs?: number;
  /**
   * The body field that carries `maxOutputTokens`: OpenAI's newer models accept only
   * `max_completion_tokens` (the default); some compatible servers know only `max_tokens`.
   */
  maxTokensParam?: 'max_completion_tokens' | 'max_tokens';
  /** Extra headers on every request (OpenRouter's `HTTP-Referer` and `X-Title`, for example). */
  headers?: Record<string, string>;
  /** Every request (the API's, streamed answers and image downloads) goes through it: the registry's guarded network (default: one that reaches no private host). */
  network?: Pick<ProviderNetwork, 'fetch' | 'request'>;
}

/** Images given as URLs (older models, some compatible servers) are fetched, up to this size each. */
const MAX_IMAGE_DOWNLOAD_BYTES = 50 * 1024 * 1024;

function toMessage(m: ChatMessageInput): ChatCompletionMessageParam {
  if (!m.images?.length) return { role: m.role, content: m.text };
  if (m.role !== 'user') throw new ProviderError('bad_request', `chat: images are only allowed in user messages, not ${m.role}`);
  return {
    role: 'user',
    content: [
      { type: 'text', text: m.text },
      ...m.images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mime};base64,${image.data.toString('base64')}` } })),
    ],
  };
}

/** `length` stays `length`; everything else (`stop`, `content_filter`, `tool_calls`) is a finished answer. */
function finishReason(reason: string | null | undefined): 'stop' | 'length' {
  return reason === 'length' ? 'length' : 'stop';
}

/** The provider-neutral error for whatever the SDK (or fetch under it), or undici's `request` under a streamed answer, threw. */
function toProviderError(e: unknown, deadline: Deadline, what: string): ProviderError {
  // The deadline first: a download inside the call would otherwise report our own timeout as an abort.
  const fired = deadline.error(what);
  if (fired) return fired;
  if (e instanceof ProviderError) return e;
  const refused = privateAddressError(e, what);
  if (refused) return refused;
  if (e instanceof APIConnectionTimeoutError) return new ProviderError('timeout', `${what}: timed out`, { cause: e });
  if (e instanceof APIUserAbortError) return new ProviderError('aborted', `${what}: aborted`, { cause: e });
  if (e instanceof APIConnectionError) return new ProviderError('unavailable', `${what}: connection failed (${e.message})`, { cause: e });
  if (e instanceof APIError) {
    const { status, headers } = e as APIError;
    if (status === undefined) return new ProviderError('unavailable', `${what}: the provider reported an error in the stream (${e.message})`, { cause: e });
    return errorFromStatus(status, headers ?? new Headers(), what, e.message, { cause: e, providerMessage: providerMessage(e.error) });
  }
  if (e instanceof SyntaxError) return new ProviderError('invalid_response', `${what}: malformed reply (${e.message})`, { cause: e });
  // fetch's "terminated", undici's "other side closed" and friends: the connection broke while the body was read.
  return new ProviderError('unavailable', `${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

/**
 * Chat, text and image models of any OpenAI-compatible API through the official `openai` SDK,
 * one instance per connection. The SDK never retries (`maxRetries: 0`): callers decide from
 * {@link ProviderError.retryable}.
 */
export class OpenAiProvider implements ChatProvider, ImageProvider {
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly idleMs: number;
  private readonly imageTimeoutMs: number;
  private readonly fetch: typeof globalThis.fetch;
  private readonly request: ProviderNetwork['request'];

  constructor(private readonly conn: OpenAiConnection) {
    const network = conn.network ?? defaultProviderNetwork();
    this.fetch = network.fetch;
    this.request = network.request;
    this.timeoutMs = conn.timeoutMs ?? 60_000;
    this.idleMs = conn.streamIdleTimeoutMs ?? 30_000;
    this.imageTimeoutMs = conn.imageTimeoutMs ?? 180_000;
    this.client = new OpenAI({
      apiKey: conn.apiKey,
      baseURL: conn.baseUrl,
      // Nothing from the environment: the SDK would otherwise send OPENAI_ADMIN_KEY, OPENAI_ORG_ID
      // and OPENAI_PROJECT_ID with every request, to whatever server the connection names.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: 0,
      fetch: this.fetch,
      // The SDK's own timer only covers the wait for the headers; our Deadline covers the body too.
      timeout: Math.max(this.timeoutMs, this.imageTimeoutMs),
      logLevel: 'off',
      ...(conn.headers ? { defaultHeaders: conn.headers } : {}),
    });
  }

  private get chatUrl(): string {
    return `${this.conn.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  private get streamHeaders(): Record<string, string> {
    return { ...this.conn.headers, authorization: `Bearer ${this.conn.apiKey}` };
  }

  private chatBody(req: ChatRequest) {
    return {
      ...req.params,
      model: req.model,
      messages: req.messages.map(toMessage),
      [this.conn.maxTokensParam ?? 'max_completion_tokens']: req.maxOutputTokens,
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    };
  }

  /**
   * A streamed answer: read with fetch and eventsource-parser (openai-stream.ts), not the SDK,
   * whose work per call is most of the adapter's time on a chat message.
   */
  async *streamChat(req: ChatRequest): AsyncGenerator<ChatEvent> {
    const what = `chat ${req.model} (stream)`;
    const deadline = new Deadline(req.signal, this.timeoutMs);
    try {
      const body: ChatCompletionCreateParamsStreaming = { ...this.chatBody(req), stream: true, stream_options: { include_usage: true } };
      let finish: 'stop' | 'length' | null = null;
      let usage: TokenUsage | null = null;
      try {
        // Until the first chunk the call's timeout runs; between chunks, the idle limit.
        for await (const chunk of streamChunks({ url: this.chatUrl, headers: this.streamHeaders, body, signal: deadline.signal, request: this.request, what })) {
          // Chunks already read still come after an abort: they are not delivered.
          if (deadline.callerAborted) break;
          // Servers that count usage per chunk send running totals: the last one wins.
          if (chunk.usage) usage = usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens) ?? usage;
          const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
          if (choice?.finish_reason) finish = finishReason(choice.finish_reason);
          const text = choice?.delta?.content;
          if (text) {
            // The consumer's time with a delta is not the provider's silence.
            deadline.pause();
            yield { type: 'delta', text };
          }
          deadline.restart(this.idleMs);
        }
      } catch (e) {
        if (!deadline.callerAborted) throw toProviderError(e, deadline, what);
      }
      // The stream ends quietly when its signal fires: which of the two fired is ours to tell.
      if (deadline.callerAborted) {
        // A stopped answer is charged the prompt the provider counted, when it said so.
        if (usage) yield { type: 'usage', ...usage };
        yield { type: 'done', finishReason: 'aborted' };
        return;
      }
      if (deadline.expired) throw new ProviderError('timeout', `${what}: no data in time`);
      if (finish === null) throw new ProviderError('unavailable', `${what}: the stream ended before the answer was complete`);
      if (usage) yield { type: 'usage', ...usage };
      yield { type: 'done', finishReason: finish };
    } finally {
      deadline.dispose();
    }
  }

  async completeChat(req: ChatRequest): Promise<ChatCompletion> {
    const what = `chat ${req.model}`;
    const deadline = new Deadline(req.signal, this.timeoutMs);
    try {
      const body: ChatCompletionCreateParamsNonStreaming = { ...this.chatBody(req), stream: false };
      const res = await this.client.chat.completions.create(body, { signal: deadline.signal });
      const choice = res.choices.find((c) => c.index === 0) ?? res.choices[0];
      if (!choice) throw new ProviderError('invalid_response', `${what}: no choices in the reply`);
      return {
        text: choice.message.content ?? '',
        usage: res.usage ? usageOf(res.usage.prompt_tokens, res.usage.completion_tokens) : null,
        finishReason: finishReason(choice.finish_reason),
      };
    } catch (e) {
      throw toProviderError(e, deadline, what);
    } finally {
      deadline.dispose();
    }
  }

  async generate(req: ImageGenerateRequest): Promise<ImageResult> {
    const what = `images.generate ${req.model}`;
    const deadline = new Deadline(req.signal, this.imageTimeoutMs);
    try {
      const body: ImageGenerateParamsNonStreaming = {
        ...req.params,
        model: req.model,
        prompt: req.prompt,
        n: req.n,
        size: req.size,
        ...(req.quality ? { quality: req.quality as ImageGenerateParamsNonStreaming['quality'] } : {}),
        // GPT image models always answer base64 (and refuse the field); DALL·E answers URLs unless asked.
        ...(req.model.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
      };
      const res = await this.client.images.generate(body, { signal: deadline.signal });
      const result = await this.toResult(res, deadline, what);
      req.onProgress?.({ step: 1, totalSteps: 1 });
      return result;
    } catch (e) {
      throw toProviderError(e, deadline, what);
    } finally {
      deadline.dispose();
    }
  }

  async edit(req: ImageEditRequest): Promise<ImageResult> {
    const what = `images.edit ${req.model}`;
    if (req.images.length === 0) throw new ProviderError('bad_request', `${what}: no image to edit`);
    const deadline = new Deadline(req.signal, this.imageTimeoutMs);
    try {
      const files = await Promise.all(
        req.images.map((data, i) => {
          const mime = sniffImageMime(data);
          if (!mime) throw new ProviderError('bad_request', `${what}: image ${i + 1} is not PNG, JPEG or WebP`);
          return toFile(data, `image-${i + 1}.${mime.slice('image/'.length)}`, { type: mime });
        }),
      );
      const mask = req.mask ? await toFile(req.mask, 'mask.png', { type: 'image/png' }) : undefined;
      const body: ImageEditParamsNonStreaming = {
        ...req.params,
        model: req.model,
        prompt: req.prompt,
        // An array goes out as `image[]` parts; DALL·E 2 takes exactly one `image`.
        image: req.model === 'dall-e-2' && files[0] ? files[0] : files,
        ...(mask ? { mask } : {}),
        n: req.n,
        size: req.size,
        ...(req.quality ? { quality: req.quality as ImageEditParamsNonStreaming['quality'] } : {}),
        ...(req.model.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
      };
      const res = await this.client.images.edit(body, { signal: deadline.signal });
      const result = await this.toResult(res, deadline, what);
      req.onProgress?.({ step: 1, totalSteps: 1 });
      return result;
    } catch (e) {
      throw toProviderError(e, deadline, what);
    } finally {
      deadline.dispose();
    }
  }

  private async toResult(res: ImagesResponse, deadline: Deadline, what: string): Promise<ImageResult> {
    const fallback: ImageMime = res.output_format === 'jpeg' ? 'image/jpeg' : res.output_format === 'webp' ? 'image/webp' : 'image/png';
    const images: GeneratedImage[] = [];
    for (const item of res.data ?? []) {
      let data: Buffer;
      if (item.b64_json) data = Buffer.from(item.b64_json, 'base64');
      else if (item.url) data = (await downloadFile(item.url, { maxBytes: MAX_IMAGE_DOWNLOAD_BYTES, timeoutMs: this.imageTimeoutMs, signal: deadline.signal, fetch: this.fetch })).data;
      else throw new ProviderError('invalid_response', `${what}: an image without data`);
      images.push({ data, mime: sniffImageMime(data) ?? fallback });
    }
    if (images.length === 0) throw new ProviderError('invalid_response', `${what}: no images in the reply`);
    const usage = res.usage ? usageOf(res.usage.input_tokens, res.usage.output_tokens) : null;
    return { images, ...(usage ? { usage } : {}) };
  }
}
