import type { Config } from '../config.ts';
import type { ProviderConnectionRow } from '../features/ai/ai.table.ts';
import { DemoProvider } from './demo/demo.provider.ts';
import { OpenAiProvider } from './openai.provider.ts';
import { ReplicateProvider } from './replicate.provider.ts';
import { ProviderError, type ChatProvider, type ImageProvider, type PredictionProvider } from './types.ts';

/** What the registry needs of a connection's row. */
export type ConnectionRef = Pick<ProviderConnectionRow, 'id' | 'name' | 'protocol' | 'base_url' | 'api_key_env' | 'timeout_seconds' | 'updated_at'>;

type Adapter = DemoProvider | OpenAiProvider | ReplicateProvider;

/**
 * The adapters of provider connections, made once per connection (and again after an admin
 * changed it): the demo provider, an OpenAI-compatible API or a Replicate-protocol API. Keys come
 * from the environment variable the connection names, never from the database.
 */
export class ProviderRegistry {
  private readonly adapters = new Map<number, { version: number; adapter: Adapter }>();
  private readonly demo: DemoProvider;

  constructor(private readonly config: Pick<Config, 'demoWordDelayMs' | 'demoStepDelayMs' | 'providerKeys'>) {
    this.demo = new DemoProvider({ wordDelayMs: config.demoWordDelayMs, imageStepDelayMs: config.demoStepDelayMs, predictionStepDelayMs: config.demoStepDelayMs * 2 });
  }

  /** The chat adapter of `conn`; a connection that cannot chat (Replicate) fails as a bad request. */
  chat(conn: ConnectionRef): ChatProvider {
    const adapter = this.adapter(conn);
    if (adapter instanceof ReplicateProvider) throw new ProviderError('bad_request', `connection ${conn.name}: the Replicate protocol has no chat`);
    return adapter;
  }

  image(conn: ConnectionRef): ImageProvider {
    const adapter = this.adapter(conn);
    if (adapter instanceof ReplicateProvider) throw new ProviderError('bad_request', `connection ${conn.name}: use predictions for Replicate image models`);
    return adapter;
  }

  predictions(conn: ConnectionRef): PredictionProvider {
    const adapter = this.adapter(conn);
    if (adapter instanceof OpenAiProvider) throw new ProviderError('bad_request', `connection ${conn.name}: the OpenAI protocol has no predictions`);
    return adapter;
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
    if (!conn.base_url) throw new ProviderError('bad_request', `connection ${conn.name} has no base URL`);
    const key = conn.api_key_env ? this.config.providerKeys[conn.api_key_env] : undefined;
    if (!key) throw new ProviderError('auth', `connection ${conn.name}: its key variable ${conn.api_key_env ?? '(none)'} is not set (names must end in _API_KEY or _API_TOKEN)`);
    const timeoutMs = conn.timeout_seconds * 1000;
    if (conn.protocol === 'openai') return new OpenAiProvider({ baseUrl: conn.base_url, apiKey: key, timeoutMs, imageTimeoutMs: Math.max(timeoutMs, 180_000) });
    // Only the end of a prediction ends a run: no webhook for its start, logs or partial outputs.
    return new ReplicateProvider({ baseUrl: conn.base_url, apiToken: key, timeoutMs, webhookEvents: ['completed'] });
  }
}
