import type { Config } from '../config.ts';
import type { ProviderConnectionRow } from '../features/ai/ai.table.ts';
import { DemoProvider } from './demo/demo.provider.ts';
import { OpenAiProvider } from './openai.provider.ts';
import { createProviderNetwork, describeRefusal, destinationRefusal, type ProviderNetwork } from './provider-network.ts';
import { ReplicateProvider } from './replicate.provider.ts';
import { instrumentChat, instrumentImages, instrumentPredictions, type CallObserver } from './instrumented.ts';
import { ProviderError, type ChatProvider, type ImageProvider, type PredictionProvider } from './types.ts';

/** What the registry needs of a connection's row. */
export type ConnectionRef = Pick<ProviderConnectionRow, 'id' | 'name' | 'protocol' | 'base_url' | 'api_key_env' | 'timeout_seconds' | 'updated_at'>;

type Adapter = DemoProvider | OpenAiProvider | ReplicateProvider;

/** What a connection test asks a chat model, and how long its answer may be (reasoning models need some room). */
const PROBE_PROMPT = 'Проверка связи. Ответь одним коротким предложением.';
const PROBE_MAX_TOKENS = 64;

/**
 * The adapters of provider connections, made once per connection (and again after an admin
 * changed it): the demo provider, an OpenAI-compatible API or a Replicate-protocol API. Keys come
 * from the environment variable the connection names, never from the database, and go only to
 * the hosts the configuration allows that key; every request goes through one guarded network
 * that reaches private addresses only where `PROVIDER_PRIVATE_HOSTS` says.
 */
export class ProviderRegistry {
  private readonly adapters = new Map<number, { version: number; adapter: Adapter }>();
  private readonly demo: DemoProvider;
  private readonly network: ProviderNetwork;

  constructor(
    private readonly config: Pick<Config, 'demoWordDelayMs' | 'demoStepDelayMs' | 'providerKeys' | 'providerKeyHosts' | 'providerPrivateHosts'>,
    network?: ProviderNetwork,
    /** Told of every call through the adapters it hands out (the metrics), by connection name. */
    private readonly onCall?: (provider: string, ...call: Parameters<CallObserver>) => void,
  ) {
    this.demo = new DemoProvider({ wordDelayMs: config.demoWordDelayMs, imageStepDelayMs: config.demoStepDelayMs, predictionStepDelayMs: config.demoStepDelayMs * 2 });
    this.network = network ?? createProviderNetwork({ privateHosts: config.providerPrivateHosts });
  }

  /** Closes the kept-alive connections to providers. */
  close(): Promise<void> {
    return this.network.close();
  }

  /** The chat adapter of `conn`; a connection that cannot chat (Replicate) fails as a bad request. */
  chat(conn: ConnectionRef): ChatProvider {
    const adapter = this.observed(conn, 'chat', () => {
      const found = this.adapter(conn);
      if (found instanceof ReplicateProvider) throw new ProviderError('bad_request', `connection ${conn.name}: the Replicate protocol has no chat`, { misconfigured: true });
      return found;
    });
    return this.onCall ? instrumentChat(adapter, this.observer(conn)) : adapter;
  }

  image(conn: ConnectionRef): ImageProvider {
    const adapter = this.observed(conn, 'image', () => {
      const found = this.adapter(conn);
      if (found instanceof ReplicateProvider) throw new ProviderError('bad_request', `connection ${conn.name}: use predictions for Replicate image models`, { misconfigured: true });
      return found;
    });
    return this.onCall ? instrumentImages(adapter, this.observer(conn)) : adapter;
  }

  predictions(conn: ConnectionRef): PredictionProvider {
    const adapter = this.observed(conn, 'predictions', () => {
      const found = this.adapter(conn);
      if (found instanceof OpenAiProvider) throw new ProviderError('bad_request', `connection ${conn.name}: the OpenAI protocol has no predictions`, { misconfigured: true });
      return found;
    });
    return this.onCall ? instrumentPredictions(adapter, this.observer(conn)) : adapter;
  }

  private observer(conn: ConnectionRef): CallObserver {
    return (operation, seconds, err) => this.onCall?.(conn.name, operation, seconds, err);
  }

  /** The adapter `find` answers; a connection that cannot give one (its setup is wrong) is a failed call too. */
  private observed<A>(conn: ConnectionRef, operation: string, find: () => A): A {
    try {
      return find();
    } catch (err) {
      this.onCall?.(conn.name, operation, 0, err);
      throw err;
    }
  }

  /**
   * A small real request through `conn`, to see that it works: a short chat answer of `model`
   * (OpenAI-compatible APIs and the demo) or the account the token belongs to (Replicate's
   * protocol, where every model run costs money). Answers the provider's text; fails with a
   * {@link ProviderError} (`aborted` when `signal` fires).
   */
  async probe(conn: ConnectionRef, req: { model: string; signal: AbortSignal }): Promise<string> {
    const adapter = this.adapter(conn);
    if (adapter instanceof ReplicateProvider) {
      const account = await adapter.account({ signal: req.signal });
      return account.name ? `${account.username} (${account.name})` : account.username;
    }
    const answer = await adapter.completeChat({ model: req.model, messages: [{ role: 'user', text: PROBE_PROMPT }], maxOutputTokens: PROBE_MAX_TOKENS, signal: req.signal });
    return answer.text;
  }

  private adapter(conn: ConnectionRef): Adapter {
    if (conn.protocol === 'demo') return this.demo;
    const version = conn.updated_at.getTime();
    const cached = this.adapters.get(conn.id);
    if (cached?.version === version) return cached.adapter;
    const adapter = this.create(conn);
    this.adapters.set(conn.id, { version, adapter });
    return adapter;
  }

  private create(conn: ConnectionRef): Adapter {
    if (!conn.base_url) throw new ProviderError('bad_request', `connection ${conn.name} has no base URL`, { misconfigured: true });
    const key = conn.api_key_env ? this.config.providerKeys[conn.api_key_env] : undefined;
    if (!key) throw new ProviderError('auth', `connection ${conn.name}: its key variable ${conn.api_key_env ?? '(none)'} is not set (names must end in _API_KEY or _API_TOKEN)`, { misconfigured: true });
    // Checked here as well as when the connection is saved: a row saved before the configuration changed is refused too.
    const refusal = destinationRefusal(this.config, conn.base_url, conn.api_key_env);
    if (refusal) throw new ProviderError('bad_request', `connection ${conn.name}: ${describeRefusal(refusal)}`, { misconfigured: true });
    const timeoutMs = conn.timeout_seconds * 1000;
    if (conn.protocol === 'openai') return new OpenAiProvider({ baseUrl: conn.base_url, apiKey: key, timeoutMs, imageTimeoutMs: Math.max(timeoutMs, 180_000), network: this.network });
    // Only the end of a prediction ends a run: no webhook for its start, logs or partial outputs.
    return new ReplicateProvider({ baseUrl: conn.base_url, apiToken: key, timeoutMs, webhookEvents: ['completed'], fetch: this.network.fetch });
  }
}
