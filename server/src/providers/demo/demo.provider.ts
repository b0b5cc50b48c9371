import { randomBytes } from 'node:crypto';
import { parsePrediction } from '../replicate.provider.ts';
import { verifyReplicateWebhook } from '../replicate-webhook.ts';
import {
  ProviderError,
  type ChatCompletion,
  type ChatEvent,
  type ChatProvider,
  type ChatRequest,
  type CreatePredictionRequest,
  type DownloadedFile,
  type GeneratedImage,
  type GenerationProgress,
  type ImageEditRequest,
  type ImageGenerateRequest,
  type ImageProvider,
  type ImageResult,
  type Prediction,
  type PredictionProvider,
  type WebhookHeaders,
} from '../types.ts';
import { composeDemoAnswer, splitWords } from './demo-chat.ts';
import { detailOf, drawPicture, inpaint, parseSize, restyle, type DemoImageOptions } from './demo-image.ts';
import { countTokens, hashText, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './demo-text.ts';
import { bundledFfmpeg, renderClip } from './demo-video.ts';

/** How the demo provider is labelled wherever it is used (model names, badges on its pictures). */
export const DEMO_LABEL = 'Демо';

/** Pace and encoder of the demo. Tests set the delays to 0. */
export interface DemoOptions {
  /** Average pause before each streamed word (each word waits 80–120 % of it, by its hash); default 50 ms. */
  wordDelayMs?: number;
  /** Pause per progress step of an image (four steps per image); default 150 ms. */
  imageStepDelayMs?: number;
  /** Pause per tenth of a prediction's progress; default 300 ms. */
  predictionStepDelayMs?: number;
  /** ffmpeg for MP4 clips; null forces animated WebP; unset: the bundled one when it runs here. */
  ffmpegPath?: string | null;
}

/** Steps an image reports (like a diffusion model's), the last one when it is encoded. */
const STEPS_PER_IMAGE = 4;
/** Predictions kept for `get` and `download`; the oldest finished ones go first. */
const MAX_PREDICTIONS = 50;
const VIDEO_DEFAULTS = { seconds: 3, fps: 24 } as const;
const ASPECTS: Record<string, [number, number]> = { '16:9': [512, 288], '9:16': [288, 512], '1:1': [384, 384], '4:3': [448, 336], '3:4': [336, 448] };

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const even = (v: number) => Math.max(16, Math.round(v / 2) * 2);
const num = (v: unknown, fallback: number, min: number, max: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback);

/** The bytes of a `data:` URL, or null for anything else (the demo fetches nothing). */
function fromDataUrl(value: unknown): Buffer | null {
  if (typeof value !== 'string' || !value.startsWith('data:')) return null;
  const comma = value.indexOf(',');
  return comma < 0 ? null : Buffer.from(value.slice(comma + 1), 'base64');
}

interface DemoPrediction {
  state: Prediction;
  files: Map<string, DownloadedFile>;
  controller: AbortController;
}

/**
 * The built-in provider that needs no network and no keys, so a fresh install works end to end:
 * chat answers in Russian from templates, pictures drawn from the prompt, short clips. Everything
 * is deterministic: the same request gives the same text, the same pixels and the same bytes.
 * Its predictions live in this process's memory (create and poll them in the same process);
 * it sends no webhooks, so callers poll it.
 */
export class DemoProvider implements ChatProvider, ImageProvider, PredictionProvider {
  private readonly wordDelayMs: number;
  private readonly imageStepDelayMs: number;
  private readonly predictionStepDelayMs: number;
  private readonly predictions = new Map<string, DemoPrediction>();

  constructor(private readonly opts: DemoOptions = {}) {
    this.wordDelayMs = opts.wordDelayMs ?? 50;
    this.imageStepDelayMs = opts.imageStepDelayMs ?? 150;
    this.predictionStepDelayMs = opts.predictionStepDelayMs ?? 300;
  }

  /** Input tokens of a request by the demo's tokenizer (see `countTokens`): text, 4 per message, 85 per image. */
  static inputTokens(req: Pick<ChatRequest, 'messages'>): number {
    return req.messages.reduce((sum, m) => sum + countTokens(m.text) + MESSAGE_OVERHEAD_TOKENS + (m.images?.length ?? 0) * IMAGE_TOKENS, 0);
  }

  private async *answer(req: ChatRequest, wordDelayMs: number): AsyncGenerator<ChatEvent> {
    const inputTokens = DemoProvider.inputTokens(req);
    const words = splitWords(composeDemoAnswer(req.messages));
    let outputTokens = 0;
    let finishReason: 'stop' | 'length' | 'aborted' = 'stop';
    for (const [i, word] of words.entries()) {
      if (wordDelayMs > 0) await sleep(wordDelayMs * (0.8 + 0.4 * ((hashText(`${i}:${word}`) % 1000) / 1000)), req.signal);
      if (req.signal?.aborted) {
        finishReason = 'aborted';
        break;
      }
      const tokens = countTokens(word);
      if (outputTokens + tokens > req.maxOutputTokens) {
        finishReason = 'length';
        break;
      }
      outputTokens += tokens;
      yield { type: 'delta', text: word };
    }
    yield { type: 'usage', inputTokens, outputTokens };
    yield { type: 'done', finishReason };
  }

  streamChat(req: ChatRequest): AsyncIterable<ChatEvent> {
    return this.answer(req, this.wordDelayMs);
  }

  async completeChat(req: ChatRequest): Promise<ChatCompletion> {
    let text = '';
    let usage = null;
    for await (const event of this.answer(req, 0)) {
      if (event.type === 'delta') text += event.text;
      else if (event.type === 'usage') usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
      else if (event.finishReason === 'aborted') throw new ProviderError('aborted', 'demo chat: aborted');
      else return { text, usage, finishReason: event.finishReason };
    }
    throw new ProviderError('invalid_response', 'demo chat: the answer did not finish');
  }

  /** Runs `draw` for each of `n` variants, reporting {@link STEPS_PER_IMAGE} steps per image. */
  private async images(
    req: { n: number; signal?: AbortSignal; onProgress?: (p: GenerationProgress) => void; prompt: string; quality?: string },
    draw: (o: DemoImageOptions) => Promise<GeneratedImage>,
  ): Promise<ImageResult> {
    if (!Number.isInteger(req.n) || req.n < 1 || req.n > 10) throw new ProviderError('bad_request', `demo: n must be 1–10, not ${req.n}`);
    const totalSteps = req.n * STEPS_PER_IMAGE;
    const images: GeneratedImage[] = [];
    let step = 0;
    const advance = async () => {
      await sleep(this.imageStepDelayMs, req.signal);
      if (req.signal?.aborted) throw new ProviderError('aborted', 'demo images: aborted');
      step += 1;
      req.onProgress?.({ step, totalSteps });
    };
    for (let variant = 0; variant < req.n; variant += 1) {
      for (let s = 1; s < STEPS_PER_IMAGE; s += 1) await advance();
      images.push(await draw({ prompt: req.prompt, variant, detail: detailOf(req.quality), label: DEMO_LABEL }));
      await advance();
    }
    const outputTokens = images.reduce((sum, image) => sum + Math.ceil(image.data.length / 1024), 0);
    return { images, usage: { inputTokens: countTokens(req.prompt), outputTokens } };
  }

  async generate(req: ImageGenerateRequest): Promise<ImageResult> {
    const { width, height } = parseSize(req.size);
    return this.images(req, (o) => drawPicture(o, width, height));
  }

  async edit(req: ImageEditRequest): Promise<ImageResult> {
    if (req.images.length === 0) throw new ProviderError('bad_request', 'demo: no image to edit');
    const { width, height } = parseSize(req.size);
    const { mask } = req;
    return this.images(req, (o) => (mask ? inpaint(req.images, mask, o, width, height) : restyle(req.images, o, width, height)));
  }

  async create(req: CreatePredictionRequest): Promise<Prediction> {
    if (req.signal?.aborted) throw new ProviderError('aborted', 'demo prediction: aborted');
    const id = `demo${randomBytes(8).toString('hex')}`;
    const entry: DemoPrediction = { state: { id, status: 'starting', output: [], error: null, progress: 0 }, files: new Map(), controller: new AbortController() };
    this.predictions.set(id, entry);
    this.evict();
    void this.run(entry, req);
    return { ...entry.state };
  }

  private evict(): void {
    for (const [id, p] of this.predictions) {
      if (this.predictions.size <= MAX_PREDICTIONS) return;
      if (p.state.status !== 'starting' && p.state.status !== 'processing') this.predictions.delete(id);
    }
  }

  /** Image models (by name: image, img, photo, flux, sdxl, diffusion, kandinsky) draw pictures; any other model renders a clip. */
  private async run(entry: DemoPrediction, req: CreatePredictionRequest): Promise<void> {
    const { signal } = entry.controller;
    // A function, not `signal.aborted`: TypeScript would keep it narrowed to false across awaits.
    const canceled = () => signal.aborted;
    const { state } = entry;
    const url = (name: string) => `demo://predictions/${state.id}/${name}`;
    const prompt = typeof req.input.prompt === 'string' && req.input.prompt.trim() ? req.input.prompt : 'Без описания';
    let reported = 0;
    const onProgress = async (done: number, total: number) => {
      state.progress = Math.min(0.99, done / total);
      // Paced in tenths, so a poller sees the progress move.
      while (reported < Math.floor(state.progress * 10)) {
        reported += 1;
        await sleep(this.predictionStepDelayMs, signal);
      }
    };
    try {
      await sleep(this.predictionStepDelayMs, signal);
      if (canceled()) return;
      state.status = 'processing';
      if (/image|img|photo|flux|sdxl|diffusion|kandinsky/i.test(req.model)) {
        const count = num(req.input.num_outputs, 1, 1, 4);
        const [aw, ah] = ASPECTS[String(req.input.aspect_ratio)] ?? [1024, 1024];
        const width = num(req.input.width, aw, 16, 1024);
        const height = num(req.input.height, ah, 16, 1024);
        for (let i = 0; i < count; i += 1) {
          const image = await drawPicture({ prompt, variant: i, detail: 0.6, label: DEMO_LABEL }, Math.round(width), Math.round(height));
          if (canceled()) return;
          entry.files.set(`output-${i}.png`, image);
          await onProgress(i + 1, count);
        }
      } else {
        const [aw, ah] = ASPECTS[String(req.input.aspect_ratio)] ?? ASPECTS['16:9'] ?? [512, 288];
        const fps = Math.round(num(req.input.fps, VIDEO_DEFAULTS.fps, 1, 30));
        const seconds = num(req.input.duration, VIDEO_DEFAULTS.seconds, 1, 10);
        const image = fromDataUrl(req.input.image);
        const clip = await renderClip({
          prompt,
          width: even(num(req.input.width, aw, 16, 1024)),
          height: even(num(req.input.height, ah, 16, 1024)),
          frames: Math.max(2, Math.round(seconds * fps)),
          fps,
          ...(image ? { image } : {}),
          label: DEMO_LABEL,
          ffmpegPath: this.opts.ffmpegPath === undefined ? await bundledFfmpeg() : this.opts.ffmpegPath,
          signal,
          onProgress,
        });
        entry.files.set(clip.mime === 'video/mp4' ? 'output.mp4' : 'output.webp', clip);
      }
      if (canceled()) return;
      Object.assign(state, { status: 'succeeded', progress: 1, output: [...entry.files.keys()].map(url) });
    } catch (e) {
      if (canceled()) return;
      Object.assign(state, { status: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  }

  private entry(id: string): DemoPrediction {
    const entry = this.predictions.get(id);
    if (!entry) throw new ProviderError('bad_request', `demo: no prediction ${id}`, { status: 404 });
    return entry;
  }

  async get(id: string): Promise<Prediction> {
    return { ...this.entry(id).state };
  }

  async cancel(id: string): Promise<Prediction> {
    const entry = this.entry(id);
    if (entry.state.status === 'starting' || entry.state.status === 'processing') {
      entry.controller.abort();
      entry.state.status = 'canceled';
    }
    return { ...entry.state };
  }

  /** Output files by their `demo://predictions/<id>/<name>` URL, from memory. */
  async download(url: string, opts: { maxBytes: number; signal?: AbortSignal }): Promise<DownloadedFile> {
    if (opts.signal?.aborted) throw new ProviderError('aborted', 'demo download: aborted');
    const match = /^demo:\/\/predictions\/([^/]+)\/([^/]+)$/.exec(url);
    const file = match ? this.predictions.get(match[1] ?? '')?.files.get(match[2] ?? '') : undefined;
    if (!file) throw new ProviderError('bad_request', `demo: no file at ${url}`, { status: 404 });
    if (file.data.length > opts.maxBytes) throw new ProviderError('invalid_response', `demo download: ${file.data.length} bytes is over the limit of ${opts.maxBytes}`);
    return { data: file.data, mime: file.mime };
  }

  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer | string, secret: string): boolean {
    return verifyReplicateWebhook(headers, rawBody, secret);
  }

  parseWebhook(rawBody: Buffer | string): Prediction {
    try {
      return parsePrediction(JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')));
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      throw new ProviderError('invalid_response', 'webhook: the body is not JSON', { cause: e });
    }
  }
}
