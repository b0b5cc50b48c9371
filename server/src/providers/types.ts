import { CHAT_TEXTS } from '@app/contracts';

/*
 * Provider-neutral types of the AI layer: what chat and generation services ask of a provider
 * and what they get back, whichever service (an OpenAI-compatible API, a Replicate-protocol
 * API, the offline demo) answers.
 */

/** Extra model parameters passed through to the provider as they are (`top_p`, `seed`, `reasoning_effort`…). */
export type ProviderParams = Record<string, string | number | boolean>;

/** An image attached to a chat message. */
export interface ChatImage {
  mime: 'image/png' | 'image/jpeg';
  data: Buffer;
}

/** One message of a conversation; only `user` messages may carry images. */
export interface ChatMessageInput {
  role: 'system' | 'user' | 'assistant';
  text: string;
  images?: ChatImage[];
}

/** A chat completion request: the whole conversation so far, oldest message first. */
export interface ChatRequest {
  /** The provider's model name (`gpt-4o-mini`, `openrouter/auto`, `demo`…). */
  model: string;
  messages: ChatMessageInput[];
  /** The answer stops (finish reason `length`) when it reaches this many tokens. */
  maxOutputTokens: number;
  temperature?: number;
  params?: ProviderParams;
  /** Aborting stops the answer: a stream then ends with `done` / `aborted`, a non-streaming call throws `aborted`. */
  signal?: AbortSignal;
}

/** Why an answer ended. */
export type FinishReason = 'stop' | 'length' | 'aborted';

/**
 * Tokens a request consumed, as the provider counted them (the basis of the words charged). A
 * count the provider left out, or sent as something other than a count, is null: the caller
 * estimates that part from the text.
 */
export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

/** A provider's token count, or null when it is not one (absent, not a number, negative, infinite). */
export function tokenCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.ceil(value) : null;
}

/** A provider's reported usage, each count checked; null when neither is a count. */
export function usageOf(input: unknown, output: unknown): TokenUsage | null {
  const usage = { inputTokens: tokenCount(input), outputTokens: tokenCount(output) };
  return usage.inputTokens === null && usage.outputTokens === null ? null : usage;
}

/**
 * What a chat stream yields, in this order: any number of `delta`s (their texts concatenated
 * are the answer), at most one `usage` (absent when the provider reported none; after an
 * abort, what it had reported so far), then exactly one `done`.
 */
export type ChatEvent = { type: 'delta'; text: string } | ({ type: 'usage' } & TokenUsage) | { type: 'done'; finishReason: FinishReason };

/** A whole answer at once. */
export interface ChatCompletion {
  text: string;
  /** Null when the provider reported no usage. */
  usage: TokenUsage | null;
  finishReason: Exclude<FinishReason, 'aborted'>;
}

/** A provider of chat and text models. */
export interface ChatProvider {
  /**
   * Streams the answer. Failures (before or during the stream) throw a {@link ProviderError};
   * an abort through `req.signal` is not a failure: the stream ends with `done` / `aborted`.
   */
  streamChat(req: ChatRequest): AsyncIterable<ChatEvent>;
  /** The same answer without streaming: its text equals the concatenated deltas of `streamChat`. */
  completeChat(req: ChatRequest): Promise<ChatCompletion>;
}

/** Image formats providers answer with. */
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

/** A generated image. */
export interface GeneratedImage {
  data: Buffer;
  mime: ImageMime;
}

/** Progress of a generation: `step` of `totalSteps` done (`step === totalSteps` when finished). */
export interface GenerationProgress {
  step: number;
  totalSteps: number;
}

/**
 * Image sizes as OpenAI names them: `WIDTHxHEIGHT` (`1024x1024`, `1536x1024`…) or `auto`.
 * Providers may answer with another size when the model cannot draw the one asked for.
 */
export type ImageSize = `${number}x${number}` | 'auto';

/** A text-to-image request. */
export interface ImageGenerateRequest {
  model: string;
  prompt: string;
  /** Number of images, 1–10. */
  n: number;
  size: ImageSize;
  /** `low` | `medium` | `high` | `auto` for GPT image models, `standard` | `hd` for DALL·E 3. */
  quality?: string;
  params?: ProviderParams;
  signal?: AbortSignal;
  /** Called as the generation advances, where the provider can tell. */
  onProgress?: (progress: GenerationProgress) => void;
}

/** An image edit: the first image is the one edited; the others are references (style, subject). */
export interface ImageEditRequest {
  model: string;
  prompt: string;
  /** PNG, JPEG or WebP; at least one. */
  images: Buffer[];
  /**
   * A PNG of the first image's size: its fully transparent pixels mark the area to repaint;
   * everything else stays as it is.
   */
  mask?: Buffer;
  size: ImageSize;
  n: number;
  quality?: string;
  params?: ProviderParams;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
}

/** The images a generation produced, with the provider's token count where it reports one. */
export interface ImageResult {
  images: GeneratedImage[];
  usage?: TokenUsage;
}

/** A provider of image models answering synchronously (OpenAI images API, the demo). */
export interface ImageProvider {
  generate(req: ImageGenerateRequest): Promise<ImageResult>;
  edit(req: ImageEditRequest): Promise<ImageResult>;
}

/** States of an asynchronous prediction, as Replicate names them. */
export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

/** The prediction states after which nothing changes any more. */
export const FINAL_PREDICTION_STATUSES: readonly PredictionStatus[] = ['succeeded', 'failed', 'canceled'];

/** An asynchronous prediction (a video or image generation) as last seen. */
export interface Prediction {
  id: string;
  status: PredictionStatus;
  /** URLs of the output files (complete once it succeeded; some models list partial ones while processing); fetch them with `download`. */
  output: string[];
  /** The provider's message when it failed. */
  error: string | null;
  /** 0–1, where the provider tells (from its logs for Replicate). */
  progress?: number;
}

/** Starts a prediction. */
export interface CreatePredictionRequest {
  /** `owner/name` (the model's latest version), `owner/name:version` or a bare version id. */
  model: string;
  /** The model's own input (prompt, image URL, duration…). */
  input: Record<string, unknown>;
  /** Where the provider POSTs the prediction as it changes (signed; see `verifyWebhook`). */
  webhookUrl?: string;
  signal?: AbortSignal;
}

/** A downloaded output file. */
export interface DownloadedFile {
  data: Buffer;
  /** The `content-type` the server sent (or that the bytes show), without parameters. */
  mime: string;
}

/** Request headers as Node gives them (names in lower case). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** A provider of asynchronous predictions in Replicate's protocol (video and image models). */
export interface PredictionProvider {
  create(req: CreatePredictionRequest): Promise<Prediction>;
  get(id: string, opts?: { signal?: AbortSignal }): Promise<Prediction>;
  /** Asks the provider to stop; answers the prediction as it is then. */
  cancel(id: string, opts?: { signal?: AbortSignal }): Promise<Prediction>;
  /** Fetches an output file; more than `maxBytes` fails with `invalid_response`. */
  download(url: string, opts: { maxBytes: number; signal?: AbortSignal }): Promise<DownloadedFile>;
  /**
   * Whether a webhook request is genuine: `webhook-id`, `webhook-timestamp` (within 5 minutes of
   * now) and one of the `v1,<signature>` entries of `webhook-signature` matching the HMAC-SHA256
   * of `${id}.${timestamp}.${rawBody}` under `secret` (`whsec_<base64>`).
   */
  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer | string, secret: string): boolean;
  /** The prediction a (verified) webhook body carries. */
  parseWebhook(rawBody: Buffer | string): Prediction;
}

/** Kinds of provider failure. */
export type ProviderErrorKind = 'timeout' | 'rate_limited' | 'unavailable' | 'bad_request' | 'auth' | 'aborted' | 'invalid_response';

const RETRYABLE: Record<ProviderErrorKind, boolean> = {
  timeout: true,
  rate_limited: true,
  unavailable: true,
  bad_request: false,
  auth: false,
  aborted: false,
  invalid_response: false,
};

/** Details of a {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** Overrides the kind's default (timeouts, rate limits and unavailability are retryable). */
  retryable?: boolean;
  /** The provider's HTTP status, when it answered. */
  status?: number;
  /** How long the provider asked to wait (`Retry-After`), for rate limits. */
  retryAfterMs?: number;
  /** The provider's own message from a structured error body (OpenAI's `error.message`, Replicate's `detail`); never a raw body. */
  providerMessage?: string;
  /**
   * The connection's setup is at fault, not the request: no address or key, a host its key may
   * not go to, a private address not allowed, a model on a connection of another protocol, a
   * connection switched off. Nothing passes until an admin changes it (never retried).
   */
  misconfigured?: boolean;
  cause?: unknown;
}

/**
 * Every failure of a provider call. `message` is for logs (English, may quote the provider);
 * users see {@link ProviderError.userMessage}. `retryable` tells callers whether trying again
 * later may succeed; adapters never retry by themselves.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** See {@link ProviderErrorOptions.providerMessage}: what an admin's test call may show. */
  readonly providerMessage?: string;
  /** See {@link ProviderErrorOptions.misconfigured}. */
  readonly misconfigured: boolean;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    opts: ProviderErrorOptions = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.misconfigured = opts.misconfigured === true;
    this.retryable = this.misconfigured ? false : (opts.retryable ?? RETRYABLE[kind]);
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
    if (opts.providerMessage !== undefined) this.providerMessage = opts.providerMessage;
  }

  /** What the user is shown, whatever the kind («Ошибка при выполнении запроса»). */
  get userMessage(): string {
    return CHAT_TEXTS.requestFailed;
  }
}
