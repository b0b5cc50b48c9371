/** A part of a multipart body: a text field, or a file with the name and type the client claims. */
export interface Part {
  name: string;
  value?: string;
  file?: { filename: string; type: string; data: Buffer };
}

/** A multipart/form-data body built by hand, so tests control every byte (and can lie about names and types). */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${String(Date.now())}${String(Math.random()).slice(2, 8)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (part.file) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file.filename}"\r\nContent-Type: ${part.file.type}\r\n\r\n`));
      chunks.push(part.file.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses an event-stream body into events (comments kept apart). */
export function parseEvents(text: string): { events: SseEvent[]; comments: number } {
  const events: SseEvent[] = [];
  let comments = 0;
  for (const block of text.split('\n\n').filter(Boolean)) {
    if (block.startsWith(':')) {
      comments += 1;
      continue;
    }
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
    const data = /^data: (.*)$/m.exec(block)?.[1];
    events.push({ event, data: data === undefined ? undefined : JSON.parse(data) });
  }
  return { events, comments };
}

/** An event stream read over real HTTP as its events come. */
export interface LiveStream {
  status: number;
  /** The reply's envelope when it was refused (not a stream). */
  data: { status?: string; text?: unknown; code?: string };
  /** Every event so far, in order. */
  events: SseEvent[];
  /** The first event (so far or to come) that `match` accepts; fails after `ms`. */
  waitFor(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** Settles when the server ended the stream (or it was closed). */
  ended: Promise<void>;
  /** Goes away as a client would (the connection is closed). */
  close(): void;
}

/** Opens an event stream with `fetch` and reads its events as they come (each `event:`/`data:` block). */
export async function openStream(url: string, init: { method?: string; headers?: Record<string, string>; body?: RequestInit['body'] } = {}): Promise<LiveStream> {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, headers: { accept: 'text/event-stream', ...init.headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  if (!res.ok || !res.body) {
    const data = (await res.json().catch(() => ({}))) as LiveStream['data'];
    return { status: res.status, data, events, waitFor: () => Promise.reject(new Error(`not a stream: ${String(res.status)}`)), ended: Promise.resolve(), close: () => undefined };
  }
  const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let isEnded = false;
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        events.push(...parseEvents(blocks.map((b) => `${b}\n\n`).join('')).events);
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by the test.
    } finally {
      isEnded = true;
      for (const wake of waiters) wake();
    }
  })();
  const waitFor = (match: (e: SseEvent) => boolean, ms = 15_000) =>
    new Promise<SseEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(match);
        if (found || isEnded) {
          waiters.delete(check);
          clearTimeout(timer);
          if (found) resolve(found);
          else reject(new Error(`the stream ended without the event; it sent ${JSON.stringify(events)}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such event within ${String(ms)} ms; the stream sent ${JSON.stringify(events)}`));
      }, ms);
      waiters.add(check);
      check();
    });
  return { status: res.status, data: {}, events, waitFor, ended, close: () => controller.abort() };
}
