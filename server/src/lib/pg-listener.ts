import pg from 'pg';
import type { Logger } from 'pino';

interface Subscription {
  onMessage: (payload: string) => void;
  /** After a lost connection came back: notifications sent meanwhile were missed. */
  onReconnect?: () => void;
  /** The connection was lost (or the listener stopped): notifications are missed until it is back. */
  onDisconnect?: () => void;
}

const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * One connection per process that LISTENs to Postgres channels for everyone (the job queue's
 * wake-ups, stop requests of chat answers): NOTIFY reaches every process of the service,
 * committed with the transaction that sent it. Reconnects after a lost connection and then tells
 * each subscriber, who may have missed something.
 */
export class PgListener {
  private readonly subscriptions = new Map<string, Subscription[]>();
  private client: pg.Client | null = null;
  private running = false;
  private ready = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /**
   * Whether notifications are being received now: connected, every channel listened to. Whoever
   * trusts a cache that notifications invalidate trusts it only meanwhile.
   */
  get listening(): boolean {
    return this.ready;
  }

  /** Listens to `channel` (from now on, or from `start`). */
  subscribe(channel: string, subscription: Subscription): void {
    if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
    const list = this.subscriptions.get(channel);
    if (list) {
      list.push(subscription);
      return;
    }
    this.subscriptions.set(channel, [subscription]);
    const client = this.client;
    if (client) client.query(`listen ${channel}`).catch((err: unknown) => this.log.warn({ err, channel }, 'listen failed'));
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.connect(false);
  }

  private async connect(reconnecting: boolean): Promise<void> {
    if (!this.running) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'listener', keepAlive: true });
    const retry = () => {
      if (this.client !== client) return;
      this.client = null;
      this.lost();
      client.end().catch(() => undefined);
      if (this.running) setTimeout(() => void this.connect(true), 1000).unref();
    };
    client.on('error', (err) => {
      this.log.warn({ err }, 'notification connection lost');
      retry();
    });
    client.on('end', retry);
    client.on('notification', (msg) => {
      for (const s of this.subscriptions.get(msg.channel) ?? []) s.onMessage(msg.payload ?? '');
    });
    this.client = client;
    try {
      await client.connect();
      for (const channel of this.subscriptions.keys()) await client.query(`listen ${channel}`);
      this.ready = this.client === client;
      if (reconnecting) for (const list of this.subscriptions.values()) for (const s of list) s.onReconnect?.();
    } catch (err) {
      this.log.warn({ err }, 'notification connection failed');
      retry();
    }
  }

  private lost(): void {
    const was = this.ready;
    this.ready = false;
    if (was) for (const list of this.subscriptions.values()) for (const s of list) s.onDisconnect?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    const client = this.client;
    this.client = null;
    this.lost();
    await client?.end().catch(() => undefined);
  }
}
