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
