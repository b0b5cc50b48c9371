import { z } from 'zod';
import { Deadline, downloadFile, errorFromStatus, privateAddressError } from './provider-http.ts';
import { defaultProviderFetch } from './provider-network.ts';
import { verifyReplicateWebhook } from './replicate-webhook.ts';
import {
  ProviderError,
  type CreatePredictionRequest,
  type DownloadedFile,
  type Prediction,
  type PredictionProvider,
  type WebhookHeaders,
} from './types.ts';

/** Events a webhook is sent for (Replicate's `webhook_events_filter`). */
export type ReplicateWebhookEvent = 'start' | 'output' | 'logs' | 'completed';

/** One connection to a service speaking Replicate's HTTP API. */
export interface ReplicateConnection {
  /** `https://api.replicate.com` or a compatible service (without `/v1`). */
  baseUrl: string;
  apiToken: string;
  /** Per API call (default 30 s). */
  timeoutMs?: number;
  /** Per output download (default 5 minutes). */
  downloadTimeoutMs?: number;
  /** Events that trigger a webhook when a webhook URL is given (default `start` and `completed`). */
  webhookEvents?: ReplicateWebhookEvent[];
  /** Every request (the API's and output downloads) goes through it: the registry's guarded fetch (default: one that reaches no private host). */
  fetch?: typeof globalThis.fetch;
}

const PredictionJsonSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['starting', 'processing', 'succeeded', 'failed', 'canceled']),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  logs: z.string().nullable().optional(),
});

const OWNER_NAME = /^[\w.-]+\/[\w.-]+$/;
const VERSIONED = /^[\w.-]+\/[\w.-]+:([\w]+)$/;
const VERSION_ID = /^[0-9a-f]{16,128}$/i;

/** The file URLs in a prediction's `output`: a URL, a list of them, or an object of named ones. */
function outputUrls(output: unknown): string[] {
  const isUrl = (v: unknown): v is string => typeof v === 'string' && /^(https?:|data:)/.test(v);
  if (isUrl(output)) return [output];
  if (Array.isArray(output)) return output.filter(isUrl);
  if (output && typeof output === 'object') return Object.values(output).flatMap((v) => (isUrl(v) ? [v] : Array.isArray(v) ? v.filter(isUrl) : []));
  return [];
}

/** The last tqdm-style percentage (` 45%|████ `) in a prediction's logs, as 0–1. */
function progressFromLogs(logs: string | null | undefined): number | undefined {
  if (!logs) return undefined;
  const matches = [...logs.matchAll(/(\d{1,3})%\|/g)];
  const last = matches.at(-1)?.[1];
  return last === undefined ? undefined : Math.min(100, Number(last)) / 100;
}

function errorText(error: unknown): string | null {
  if (error === null || error === undefined || error === '') return null;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** A prediction from the JSON a Replicate-protocol API (or its webhook) sent. */
export function parsePrediction(json: unknown): Prediction {
  const parsed = PredictionJsonSchema.safeParse(json);
  if (!parsed.success) throw new ProviderError('invalid_response', `prediction: unexpected reply (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  const p = parsed.data;
  const progress = p.status === 'succeeded' ? 1 : progressFromLogs(p.logs);
  return {
    id: p.id,
    status: p.status,
    output: outputUrls(p.output),
    error: errorText(p.error),
    ...(progress === undefined ? {} : { progress }),
  };
}

/**
 * Replicate's prediction API over fetch: create (by model or by version), poll, cancel,
 * download outputs, verify webhooks. Calls are not retried here; failures throw
 * {@link ProviderError}.
 */
export class ReplicateProvider implements PredictionProvider {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof globalThis.fetch;

  constructor(private readonly conn: ReplicateConnection) {
    this.baseUrl = conn.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = conn.timeoutMs ?? 30_000;
    this.fetch = conn.fetch ?? defaultProviderFetch;
  }

  private async call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    const what = `replicate ${method} ${path}`;
    const deadline = new Deadline(signal, this.timeoutMs);
    try {
      const res = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.conn.apiToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: deadline.signal,
      });
      const text = await res.text();
      if (!res.ok) {
        // Replicate's errors are problem details (`{title, detail, status}`): the provider's own words; any other body only goes to the log.
        let providerMessage: string | undefined;
        try {
          const parsed = JSON.parse(text) as unknown;
          const { detail, title } = (parsed && typeof parsed === 'object' ? parsed : {}) as { detail?: unknown; title?: unknown };
          providerMessage = typeof detail === 'string' ? detail : typeof title === 'string' ? title : undefined;
        } catch {
          // Not JSON: nothing the provider meant as a message.
        }
        throw errorFromStatus(res.status, res.headers, what, providerMessage ?? text, { providerMessage });
      }
      try {
        return JSON.parse(text) as unknown;
      } catch (e) {
        throw new ProviderError('invalid_response', `${what}: the reply is not JSON`, { cause: e });
      }
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      throw deadline.error(what) ?? privateAddressError(e, what) ?? new ProviderError('unavailable', `${what}: ${String(e)}`, { cause: e });
    } finally {
      deadline.dispose();
    }
  }

  async create(req: CreatePredictionRequest): Promise<Prediction> {
    const webhook = req.webhookUrl ? { webhook: req.webhookUrl, webhook_events_filter: this.conn.webhookEvents ?? ['start', 'completed'] } : {};
    const versioned = VERSIONED.exec(req.model);
    if (versioned?.[1] !== undefined || VERSION_ID.test(req.model)) {
      const version = versioned?.[1] ?? req.model;
      return parsePrediction(await this.call('POST', '/v1/predictions', { version, input: req.input, ...webhook }, req.signal));
    }
    if (!OWNER_NAME.test(req.model)) throw new ProviderError('bad_request', `replicate: "${req.model}" is neither owner/name nor a version`);
    const [owner = '', name = ''] = req.model.split('/');
    const path = `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`;
    return parsePrediction(await this.call('POST', path, { input: req.input, ...webhook }, req.signal));
  }

  async get(id: string, opts: { signal?: AbortSignal } = {}): Promise<Prediction> {
    return parsePrediction(await this.call('GET', `/v1/predictions/${encodeURIComponent(id)}`, undefined, opts.signal));
  }

  async cancel(id: string, opts: { signal?: AbortSignal } = {}): Promise<Prediction> {
    return parsePrediction(await this.call('POST', `/v1/predictions/${encodeURIComponent(id)}/cancel`, undefined, opts.signal));
  }

  /** The account the token belongs to (`GET /v1/account`): a call that costs nothing and checks the token and the API. */
  async account(opts: { signal?: AbortSignal } = {}): Promise<{ username: string; name: string | null }> {
    const reply = z.object({ username: z.string(), name: z.string().nullable().optional() }).safeParse(await this.call('GET', '/v1/account', undefined, opts.signal));
    if (!reply.success) throw new ProviderError('invalid_response', 'replicate: unexpected account reply');
    return { username: reply.data.username, name: reply.data.name ?? null };
  }

  /** The account's webhook signing secret (`whsec_…`), from `GET /v1/webhooks/default/secret`. */
  async getWebhookSecret(opts: { signal?: AbortSignal } = {}): Promise<string> {
    const reply = z.object({ key: z.string().startsWith('whsec_') }).safeParse(await this.call('GET', '/v1/webhooks/default/secret', undefined, opts.signal));
    if (!reply.success) throw new ProviderError('invalid_response', 'replicate: unexpected webhook secret reply');
    return reply.data.key;
  }

  /** Output files: the token is sent only to the API's own origin (its `/v1/files` URLs), never to file CDNs. */
  async download(url: string, opts: { maxBytes: number; signal?: AbortSignal }): Promise<DownloadedFile> {
    let sameOrigin = false;
    try {
      sameOrigin = new URL(url).origin === new URL(this.baseUrl).origin;
    } catch {
      sameOrigin = false;
    }
    return downloadFile(url, {
      maxBytes: opts.maxBytes,
      timeoutMs: this.conn.downloadTimeoutMs ?? 5 * 60_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
      fetch: this.fetch,
      ...(sameOrigin ? { headers: { authorization: `Bearer ${this.conn.apiToken}` } } : {}),
    });
  }

  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer | string, secret: string): boolean {
    return verifyReplicateWebhook(headers, rawBody, secret);
  }

  parseWebhook(rawBody: Buffer | string): Prediction {
    let json: unknown;
    try {
      json = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
    } catch (e) {
      throw new ProviderError('invalid_response', 'webhook: the body is not JSON', { cause: e });
    }
    return parsePrediction(json);
  }
}
