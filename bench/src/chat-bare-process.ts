import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The chat bench's baseline: one bare hop between the client and the provider. It reads the
 * multipart request whole (no parsing), asks the provider for a stream with fetch, passes each
 * content piece on as an SSE `delta` and ends with `done`: no database, no validation, no
 * session, no hold. What the app takes beyond this is its own work.
 */
const providerUrl = process.env.PROVIDER_URL;
const apiKey = process.env.PROVIDER_API_KEY;
if (!providerUrl || !apiKey) throw new Error('PROVIDER_URL and PROVIDER_API_KEY are required');

const server = http.createServer((req, res) => {
  void (async () => {
    for await (const _chunk of req) continue;
    const upstream = await fetch(`${providerUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'bench' }] }),
    });
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    res.write(`event: start\ndata: {}\n\n`);
    const decoder = new TextDecoder();
    let buffer = '';
    let text = '';
    for await (const bytes of upstream.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const line = buffer.slice(0, end).replace(/^data: /, '');
        buffer = buffer.slice(end + 2);
        if (line === '[DONE]') continue;
        const content = (JSON.parse(line) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content;
        if (content) {
          text += content;
          res.write(`event: delta\ndata: ${JSON.stringify({ text: content })}\n\n`);
        }
      }
    }
    res.end(`event: done\ndata: ${JSON.stringify({ message: text })}\n\n`);
  })().catch((err: unknown) => {
    console.error(err);
    res.destroy();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
