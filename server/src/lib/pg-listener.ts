import crypto from 'node:crypto';
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
  /** This process's own channel for the heartbeat, and the heartbeat not answered yet. */
  private readonly pingChannel = `ns_ping_${crypto.randomBytes(8).toString('hex')}`;
  private pending: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
    /**
     * How often the connection NOTIFYs itself; a heartbeat not back by the next one means the
     * connection is silently gone (a dead peer, a partition, a frozen server, a pooler that does
     * not pass LISTEN on): it counts as lost, and is made again.
     */
    private readonly heartbeatMs = 5000,
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
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'listener', keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    const retry = () => {
      if (this.client !== client) return;
      this.client = null;
      this.stopHeartbeat();
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
      if (msg.channel === this.pingChannel) {
        if (msg.payload === this.pending) this.pending = null;
        return;
      }
      for (const s of this.subscriptions.get(msg.channel) ?? []) s.onMessage(msg.payload ?? '');
    });
    this.client = client;
    try {
      await client.connect();
      for (const channel of [...this.subscriptions.keys(), this.pingChannel]) await client.query(`listen ${channel}`);
      if (this.client !== client) return;
      this.ready = true;
      this.startHeartbeat(client, retry);
      if (reconnecting) for (const list of this.subscriptions.values()) for (const s of list) s.onReconnect?.();
    } catch (err) {
      this.log.warn({ err }, 'notification connection failed');
      retry();
    }
  }

  private startHeartbeat(client: pg.Client, lose: () => void): void {
    this.stopHeartbeat();
    this.pending = null;
    this.heartbeat = setInterval(() => {
      const missed = this.pending;
      if (missed !== null) {
        // After the notifications already received are read (a blocked event loop delays this
        // tick and them alike): still missing, the connection is silent.
        setImmediate(() => {
          if (this.pending !== missed || this.client !== client) return;
          this.log.warn({ afterMs: this.heartbeatMs }, 'notification connection silent: its heartbeat did not come back');
          lose();
        });
        return;
      }
      const nonce = crypto.randomBytes(8).toString('hex');
      this.pending = nonce;
      // A failure here is the connection's: its `error` event handles it.
      client.query('select pg_notify($1, $2)', [this.pingChannel, nonce]).catch(() => undefined);
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.pending = null;
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
    this.stopHeartbeat();
    this.lost();
    await client?.end().catch(() => undefined);
  }
}
