import net from 'node:net';

/** What a streamed upload got back, and how far its body had gone when the reply came. */
export interface StreamedUpload {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Body bytes written to the socket before the reply arrived. */
  sentBytes: number;
  /** Whether the whole declared body had been written before the reply arrived. */
  finishedSending: boolean;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Parses a complete HTTP/1.1 reply in `raw` (with Content-Length), or answers undefined while it is still coming. */
function parseReply(raw: Buffer): Omit<StreamedUpload, 'sentBytes' | 'finishedSending'> | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? 0);
  if (raw.length < end + 4 + length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.subarray(end + 4, end + 4 + length).toString('utf8') };
}

/**
 * A client that declares a body of `bodyBytes` and streams it over a raw socket in 64 KB chunks
 * (as fast as the socket takes them, never holding more than one chunk), starting with `head`,
 * and stops sending as soon as the reply is in: so a server that answers before reading the body
 * is told apart from one that reads it all first. Loopback only.
 */
export function streamUpload(baseUrl: string, opts: { method?: string; path: string; headers?: Record<string, string>; bodyBytes: number; head?: Buffer }): Promise<StreamedUpload> {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error('loopback only');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(url.port) });
    const received: Buffer[] = [];
    let sent = 0;
    let done = false;
    const finish = (result: StreamedUpload | Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const tryReply = () => {
      const reply = parseReply(Buffer.concat(received));
      if (reply) finish({ ...reply, sentBytes: sent, finishedSending: sent >= opts.bodyBytes });
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      tryReply();
    });
    // The server may close the socket under a client still sending: the reply came first or not at all.
    socket.on('error', () => {
      tryReply();
      finish(new Error(`no reply before the connection failed (${String(sent)} bytes sent)`));
    });
    socket.on('close', () => {
      tryReply();
      finish(new Error(`connection closed without a reply (${String(sent)} bytes sent)`));
    });
    socket.on('connect', () => {
      const headers = { host: url.host, 'content-length': String(opts.bodyBytes), ...opts.headers };
      socket.write(`${opts.method ?? 'POST'} ${opts.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
      const pump = () => {
        while (!done && sent < opts.bodyBytes) {
          const piece = sent === 0 && opts.head ? opts.head : CHUNK;
          const part = piece.subarray(0, Math.min(piece.length, opts.bodyBytes - sent));
          sent += part.length;
          if (!socket.write(part)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

/** A request sent as an attacker trickles it: what came back and when the connection ended. */
export interface Trickle {
  /** The status of the reply, once its status line is in (null until then). */
  status: number | null;
  /** Whether the connection has ended (closed by either side, or reset). */
  closed: boolean;
  /** When the request's head was sent (`performance.now()`), null until connected. */
  sentAt: number | null;
  /** Resolves when the connection ends, with the reply's status if one came. */
  ended: Promise<number | null>;
  stop(): void;
}

/**
 * Opens a connection from `localAddress` (a loopback address) and sends `head` (the request line
 * and headers, or only part of them), then one byte of body every `intervalMs`, until the server
 * answers or closes, or `stop()`. Loopback only.
 */
export function trickle(baseUrl: string, opts: { head: string; intervalMs: number; localAddress?: string }): Trickle {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error('loopback only');
  const socket = net.connect({ host: '127.0.0.1', port: Number(url.port), ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
  let timer: NodeJS.Timeout | undefined;
  let resolveEnded: (status: number | null) => void = () => undefined;
  const state: Trickle = {
    status: null,
    closed: false,
    sentAt: null,
    ended: new Promise((resolve) => (resolveEnded = resolve)),
    stop: () => socket.destroy(),
  };
  let received = '';
  socket.setNoDelay(true);
  socket.on('connect', () => {
    socket.write(opts.head);
    state.sentAt = performance.now();
    timer = setInterval(() => socket.write('a'), opts.intervalMs);
  });
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
    if (status && state.status === null) state.status = Number(status);
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    clearInterval(timer);
    state.closed = true;
    resolveEnded(state.status);
  });
  return state;
}
