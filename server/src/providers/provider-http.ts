import { defaultProviderFetch, privateAddressIn } from './provider-network.ts';
import { ProviderError, type DownloadedFile, type ImageMime } from './types.ts';

/**
 * A signal for one provider call that fires when the caller aborts or when its time is up,
 * and remembers which of the two it was (an abort is `aborted`, the timer `timeout`).
 * `restart(ms)` re-arms the timer: streams use it as an idle timeout between chunks.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  private readonly onOuterAbort = () => this.controller.abort();

  constructor(
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    if (outer?.aborted) this.controller.abort();
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.restart(timeoutMs);
  }

  /** The signal to hand to fetch or the SDK. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the caller aborted (as opposed to the timer firing). */
  get callerAborted(): boolean {
    return this.outer?.aborted === true;
  }

  /** Whether the timer fired before the caller aborted. */
  get expired(): boolean {
    return this.timedOut && !this.callerAborted;
  }

  /** Gives the call `ms` more milliseconds from now. */
  restart(ms: number): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, ms);
  }

  /** Stops the timer until the next `restart` (while a stream's consumer handles a chunk). */
  pause(): void {
    clearTimeout(this.timer);
  }

  /** Stops the timer and forgets the caller's signal; call when the call is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  /** The error for a call that ended because this deadline fired, or null when it did not fire. */
  error(what: string): ProviderError | null {
    if (this.callerAborted) return new ProviderError('aborted', `${what}: aborted by the caller`);
    if (this.timedOut) return new ProviderError('timeout', `${what}: timed out`);
    return null;
  }
}

/** Milliseconds a `Retry-After-Ms` or `Retry-After` (seconds or an HTTP date) header asks to wait. */
export function parseRetryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The error for an HTTP status a provider answered with. `detail` goes into the message (for
 * logs); `providerMessage`, the provider's own words from a structured body, is kept apart.
 */
export function errorFromStatus(status: number, headers: Headers, what: string, detail = '', more: { cause?: unknown; providerMessage?: string | undefined } = {}): ProviderError {
  const message = `${what}: HTTP ${status}${detail ? ` — ${detail.slice(0, 300)}` : ''}`;
  const retryAfterMs = parseRetryAfter(headers);
  const extra = {
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(more.cause === undefined ? {} : { cause: more.cause }),
    ...(more.providerMessage === undefined ? {} : { providerMessage: more.providerMessage }),
  };
  if (status === 429) return new ProviderError('rate_limited', message, extra);
  if (status === 408) return new ProviderError('timeout', message, extra);
  if (status === 401 || status === 403) return new ProviderError('auth', message, extra);
  // 402: the provider account has run out of credit; trying again will not help until someone pays.
  if (status === 402) return new ProviderError('unavailable', message, { ...extra, retryable: false });
  if (status >= 400 && status < 500) return new ProviderError('bad_request', message, extra);
  if (status >= 500) return new ProviderError('unavailable', message, extra);
  return new ProviderError('invalid_response', message, extra);
}

/** The image format of some bytes, by their signature; null for anything else. */
export function sniffImageMime(data: Buffer): ImageMime | null {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47 && data.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** The error for a connection refused because its host is private and not configured (see provider-network.ts), if `e` is one. */
export function privateAddressError(e: unknown, what: string): ProviderError | null {
  const refused = privateAddressIn(e);
  return refused ? new ProviderError('bad_request', `${what}: ${refused.message}`, { cause: e, misconfigured: true }) : null;
}

/** Options of {@link downloadFile}. */
export interface DownloadOptions {
  maxBytes: number;
  signal?: AbortSignal;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** The adapter's guarded fetch (default: one that reaches no private host). */
  fetch?: typeof globalThis.fetch;
}

/** The bytes and type of a base64 `data:` URL (what providers answer small outputs with). */
function fromDataUrl(url: string, maxBytes: number): DownloadedFile {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,/.exec(url);
  if (!match) throw new ProviderError('bad_request', 'download: only base64 data: URLs are supported');
  const data = Buffer.from(url.slice(match[0].length), 'base64');
  if (data.length > maxBytes) throw new ProviderError('invalid_response', `download: ${data.length} bytes is over the limit of ${maxBytes}`);
  return { data, mime: match[1] || (sniffImageMime(data) ?? 'application/octet-stream') };
}

/**
 * GETs an http(s) URL into memory, refusing more than `maxBytes` (by `content-length` before
 * reading, and by counting while reading, for servers that do not say). Base64 `data:` URLs
 * are decoded in place.
 */
export async function downloadFile(url: string, opts: DownloadOptions): Promise<DownloadedFile> {
  if (url.startsWith('data:')) return fromDataUrl(url, opts.maxBytes);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProviderError('bad_request', `download: not a URL: ${url.slice(0, 100)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ProviderError('bad_request', `download: unsupported scheme ${parsed.protocol}`);
  const deadline = new Deadline(opts.signal, opts.timeoutMs);
  try {
    const res = await (opts.fetch ?? defaultProviderFetch)(parsed, { signal: deadline.signal, ...(opts.headers ? { headers: opts.headers } : {}) });
    if (!res.ok) {
      await res.body?.cancel();
      throw errorFromStatus(res.status, res.headers, 'download');
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      await res.body?.cancel();
      throw new ProviderError('invalid_response', `download: ${declared} bytes is over the limit of ${opts.maxBytes}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (res.body) {
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > opts.maxBytes) {
          await reader.cancel();
          throw new ProviderError('invalid_response', `download: more than ${opts.maxBytes} bytes`);
        }
        chunks.push(Buffer.from(value));
      }
    }
    const data = Buffer.concat(chunks);
    const type = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    return { data, mime: type && type !== 'application/octet-stream' ? type : (sniffImageMime(data) ?? 'application/octet-stream') };
  } catch (e) {
    if (e instanceof ProviderError) throw e;
    throw deadline.error('download') ?? privateAddressError(e, 'download') ?? new ProviderError('unavailable', `download failed: ${String(e)}`, { cause: e });
  } finally {
    deadline.dispose();
  }
}
