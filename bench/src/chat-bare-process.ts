import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

/**
 * The chat bench's baseline: one bare hop between the client and the provider. It reads the
 * request whole (no parsing), asks the provider for a stream with fetch, passes each
 * content piece on as an SSE `delta` and ends with `done`: no database, no validation, no
 * session, no hold. What the app takes beyond this is its own work.
 *
 * With DATABASE_URL, USER_ID and MODEL_ID it also runs the app's two statements of a message,
 * `chat_send` before asking the provider and `chat_close` after (ten messages to a chat, as the
 * bench sends them to the app), each a durable commit through plain pg: the least any server
 * that holds and settles a message's words in the database can take.
 */
const providerUrl = process.env.PROVIDER_URL;
const apiKey = process.env.PROVIDER_API_KEY;
if (!providerUrl || !apiKey) throw new Error('PROVIDER_URL and PROVIDER_API_KEY are required');
const database = process.env.DATABASE_URL ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 }) : null;
const userId = Number(process.env.USER_ID);
const modelId = Number(process.env.MODEL_ID);
let chatId: number | undefined;
let inChat = 0;

async function chatSend(): Promise<number | null> {
  if (!database) return null;
  if (inChat >= 10) chatId = undefined;
  const params = { user_id: userId, chat_id: chatId, title: 'Бенч', model_id: modelId, model_name: 'Бенч-модель', param: null, message: 'Сообщение бенча', rate: 1, base_tokens: 300, history_limit: 20, file_ids: [], max_answers: 3 };
  const { rows } = await database.query<{ r: { status: string; chat_id: number; answer_id: number } }>('select chat_send($1::jsonb) as r', [JSON.stringify(params)]);
  const sent = rows[0]?.r;
  if (sent?.status !== 'ok') throw new Error(`chat_send answered ${JSON.stringify(sent)}`);
  if (chatId !== sent.chat_id) inChat = 0;
  chatId = sent.chat_id;
  inChat++;
  return sent.answer_id;
}

async function chatClose(answerId: number | null, text: string): Promise<void> {
  if (!database || answerId === null) return;
  const params = { message_id: answerId, user_id: userId, text, status: 'done', words: 20, input_tokens: 40, output_tokens: 12, error: null };
  await database.query('select chat_close($1::jsonb) as r', [JSON.stringify(params)]);
}

const server = http.createServer((req, res) => {
  void (async () => {
    for await (const _chunk of req) continue;
    const answerId = await chatSend();
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
    await chatClose(answerId, text);
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
