import net from 'node:net';

interface Side {
  socket: net.Socket;
  /** What arrived from this side while the proxy was frozen, for the other side. */
  held: Buffer[];
}

interface Pair {
  client: Side;
  upstream: Side | null;
}

/**
 * A TCP proxy in front of PostgreSQL on 127.0.0.1, for the processes of a test: while it is
 * frozen nothing passes either way and new connections wait unanswered, as with a database server
 * that hangs (a stalled disk, a network partition that drops nothing); thawed, everything held
 * goes on where it stopped. Cut, every connection drops and new ones are refused.
 */
export class DbProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<Pair>();
  private frozen = false;
  private refusing = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** `databaseUrl` (a URL of the proxied server) going through this proxy. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  /** Connections open through the proxy now. */
  get connections(): number {
    return this.pairs.size;
  }

  /** Stops every byte, both ways, and leaves new connections waiting. */
  freeze(): void {
    this.frozen = true;
    for (const pair of this.pairs) {
      pair.client.socket.pause();
      pair.upstream?.socket.pause();
    }
  }

  /** Lets everything held go on, and connects the connections that waited. */
  thaw(): void {
    this.frozen = false;
    for (const pair of this.pairs) {
      if (!pair.upstream) {
        this.connectUpstream(pair);
        continue;
      }
      this.flush(pair.client, pair.upstream);
      this.flush(pair.upstream, pair.client);
      pair.client.socket.resume();
      pair.upstream.socket.resume();
    }
  }

  /** Drops every connection at once (as a database that went away) and refuses new ones until `restore()`. */
  cut(): void {
    this.refusing = true;
    for (const pair of this.pairs) this.close(pair);
  }

  /** Takes connections again after `cut()`. */
  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    for (const pair of this.pairs) this.close(pair);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    if (this.refusing) {
      socket.destroy();
      return;
    }
    const pair: Pair = { client: { socket, held: [] }, upstream: null };
    this.pairs.add(pair);
    socket.on('error', () => this.close(pair));
    socket.on('close', () => this.close(pair));
    socket.on('data', (chunk: Buffer) => this.pass(pair.client, pair.upstream, chunk));
    if (this.frozen) socket.pause();
    else this.connectUpstream(pair);
  }

  private connectUpstream(pair: Pair): void {
    const socket = net.connect(this.target.port, this.target.host);
    const upstream: Side = { socket, held: [] };
    pair.upstream = upstream;
    socket.on('error', () => this.close(pair));
    socket.on('close', () => this.close(pair));
    socket.on('data', (chunk: Buffer) => this.pass(upstream, pair.client, chunk));
    socket.once('connect', () => {
      if (this.frozen) {
        socket.pause();
        pair.client.socket.pause();
        return;
      }
      this.flush(pair.client, upstream);
      pair.client.socket.resume();
    });
  }

  private pass(from: Side, to: Side | null, chunk: Buffer): void {
    if (this.frozen || !to || to.socket.connecting) {
      from.held.push(chunk);
      if (this.frozen) from.socket.pause();
      return;
    }
    to.socket.write(chunk);
  }

  /** Writes what `from` sent while held up to `to`. */
  private flush(from: Side, to: Side): void {
    for (const chunk of from.held.splice(0)) to.socket.write(chunk);
  }

  private close(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.socket.destroy();
    pair.upstream?.socket.destroy();
  }
}
