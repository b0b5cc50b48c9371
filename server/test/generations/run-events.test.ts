import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationRoutes } from '@app/contracts';
import { finishRun, setProgress } from '../../src/features/generations/generations.queries.ts';
import { createTestApp, parseEvents, userWithTokens, type SseEvent, type TestApp } from '../support/index.ts';

/* A run's events (SSE) followed over a real connection for as long as the run takes. */

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.listen();
});
afterAll(() => t.close());

/** Opens a run's event stream: its events as they come. */
async function openEvents(token: string, id: number): Promise<{ next: () => Promise<SseEvent | null> }> {
  const res = await fetch(`${baseUrl}${generationRoutes.events.path.replace(':id', String(id))}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    next: async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const parsed = parseEvents(buffer.slice(0, end + 2)).events[0];
          buffer = buffer.slice(end + 2);
          if (parsed) return parsed;
          continue;
        }
        const chunk = (await reader.read()) as { done: boolean; value?: Uint8Array };
        if (chunk.done) return null;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

describe('GET /api/new/generations/:id/events', () => {
  it('follows a long run through many polls without piling up abort listeners (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const user = await userWithTokens(t.db, 5);
      // A run that a job would be working on (none is: the test moves it on, as a slow video's job would).
      const run = await t.db
        .insertInto('generations')
        .values({ user_id: user.id, variant: 'video', product_name: 'Видео по описанию', model_name: 'Демо-оператор', prompt: 'Долгий ролик', wallet: 'media', cost: 0, status: 'running' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const events = await openEvents(user.token, run.id);
      expect(await events.next()).toEqual({ event: 'progress', data: { status: 'running', progress: 0 } });
      // Each change comes as it is made (its NOTIFY): 15 changes on the stream's one signal.
      for (let progress = 1; progress <= 15; progress += 1) {
        await setProgress(t.db, run.id, progress);
        expect(await events.next()).toEqual({ event: 'progress', data: { status: 'running', progress } });
      }
      await finishRun(t.db, run.id, ['running'], { status: 'failed', error: 'Не вышло' });
      expect(await events.next()).toMatchObject({ event: 'progress', data: { status: 'failed' } });
      expect(await events.next()).toMatchObject({ event: 'done', data: { id: run.id, status: 'failed' } });
      expect(await events.next()).toBeNull();
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 30_000);
});
