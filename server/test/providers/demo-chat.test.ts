import { describe, expect, test } from 'vitest';
import { DEMO_LABEL, DemoProvider } from '../../src/providers/demo/demo.provider.ts';
import { countTokens } from '../../src/providers/demo/demo-text.ts';
import { ProviderError, type ChatEvent, type ChatRequest } from '../../src/providers/types.ts';

const demo = new DemoProvider({ wordDelayMs: 0 });
const png = { mime: 'image/png' as const, data: Buffer.from('png bytes') };

const ask = (text: string, over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'demo',
  messages: [{ role: 'user', text }],
  maxOutputTokens: 2000,
  ...over,
});

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const textOf = (events: ChatEvent[]) => events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');

test('is labelled «Демо»', () => {
  expect(DEMO_LABEL).toBe('Демо');
});

describe('answers', () => {
  test('deterministic: the same conversation gives the same answer, another question another one', async () => {
    const a = await demo.completeChat(ask('Как выучить английский язык за год?'));
    const b = await demo.completeChat(ask('Как выучить английский язык за год?'));
    const c = await demo.completeChat(ask('Почему небо голубое?'));
    expect(a).toEqual(b);
    expect(c.text).not.toBe(a.text);
  });

  test('natural Russian that quotes the question', async () => {
    const { text } = await demo.completeChat(ask('Почему небо голубое?'));
    expect(text).toContain('«Почему небо голубое?»');
    const letters = text.match(/\p{L}/gu) ?? [];
    const cyrillic = text.match(/[А-Яа-яЁё]/g) ?? [];
    expect(cyrillic.length / letters.length).toBeGreaterThan(0.95);
    expect(text).toContain('демо-режима');
  });

  test('a request for code gets a fenced code block in the language asked for', async () => {
    const py = (await demo.completeChat(ask('Напиши функцию на Python, которая считает слова'))).text;
    expect(py).toMatch(/```python\n[\s\S]+\n```/);
    expect(py).toContain('Вот небольшой пример на Python');
    const sql = (await demo.completeChat(ask('Покажи SQL запрос для отчёта по заказам'))).text;
    expect(sql).toMatch(/```sql\n-- .+\nSELECT/);
    const ts = (await demo.completeChat(ask('Напиши код на TypeScript с "кавычками" и `обратными`'))).text;
    const block = /```typescript\n([\s\S]+?)\n```/.exec(ts)?.[1] ?? '';
    expect(block).toContain('console.log(countWords("Напиши код на TypeScript с кавычками и обратными"));');
  });

  test('a request for a list gets a numbered Markdown list', async () => {
    const { text } = await demo.completeChat(ask('Дай список советов для продуктивной работы'));
    expect(text).toMatch(/\n1\. \*\*.+\*\* .+\n2\. \*\*.+\*\* .+\n3\. /);
  });

  test('attached images are acknowledged with their count', async () => {
    const two = await demo.completeChat(ask('Что на этих фото?', { messages: [{ role: 'user', text: 'Что на этих фото?', images: [png, png] }] }));
    expect(two.text).toContain('Вы приложили 2 изображения.');
    const one = await demo.completeChat(ask('', { messages: [{ role: 'user', text: 'Опиши', images: [png] }] }));
    expect(one.text).toContain('Вы приложили 1 изображение.');
    const five = await demo.completeChat(ask('', { messages: [{ role: 'user', text: 'Сравни', images: [png, png, png, png, png] }] }));
    expect(five.text).toContain('Вы приложили 5 изображений.');
    const none = await demo.completeChat(ask('Просто вопрос'));
    expect(none.text).not.toContain('приложили');
  });

  test('greetings and thanks get short replies; an earlier question is recalled', async () => {
    expect((await demo.completeChat(ask('Привет!'))).text).toMatch(/^Здравствуйте! Я демо-модель Нейростудии\./);
    expect((await demo.completeChat(ask('Спасибо большое'))).text).toMatch(/^Пожалуйста!/);
    const followUp = await demo.completeChat(
      ask('', {
        messages: [
          { role: 'system', text: 'Ты помощник.' },
          { role: 'user', text: 'Какой язык программирования выбрать?' },
          { role: 'assistant', text: 'Зависит от задачи.' },
          { role: 'user', text: 'А для анализа данных?' },
        ],
      }),
    );
    expect(followUp.text).toContain('Помню, что раньше вы спрашивали: «Какой язык программирования выбрать?»');
    expect(followUp.text).toContain('«А для анализа данных?»');
  });
});

describe('streaming', () => {
  test('word by word; the concatenated deltas equal the non-streaming text; usage then done', async () => {
    const req = ask('Расскажи, как устроена Солнечная система?');
    const events = await collect(demo.streamChat(req));
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(20);
    for (const d of deltas) expect(d.text.trim().split(/\s+/)).toHaveLength(1);
    const complete = await demo.completeChat(req);
    expect(textOf(events)).toBe(complete.text);
    expect(events.slice(-2)).toEqual([
      { type: 'usage', ...complete.usage },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  test('usage by the documented tokenizer: text tokens, 4 per message, 85 per image', async () => {
    expect(countTokens('Привет, мир!')).toBe(4);
    expect(countTokens('  ')).toBe(0);
    const req = ask('', {
      messages: [
        { role: 'system', text: 'Будь краток.' },
        { role: 'user', text: 'Привет, мир!', images: [png] },
      ],
    });
    const answer = await demo.completeChat(req);
    expect(answer.usage).toEqual({ inputTokens: 3 + 4 + (4 + 4 + 85), outputTokens: countTokens(answer.text) });
  });

  test('maxOutputTokens stops the answer with length, within the limit, as a prefix of the full one', async () => {
    const full = await demo.completeChat(ask('Почему небо голубое?'));
    const events = await collect(demo.streamChat(ask('Почему небо голубое?', { maxOutputTokens: 10 })));
    const usage = events.find((e) => e.type === 'usage');
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'length' });
    expect(usage?.type === 'usage' && usage.outputTokens).toBeLessThanOrEqual(10);
    expect(usage?.type === 'usage' && usage.outputTokens).toBeGreaterThan(5);
    expect(full.text.startsWith(textOf(events))).toBe(true);
    expect((await demo.completeChat(ask('Почему небо голубое?', { maxOutputTokens: 10 }))).finishReason).toBe('length');
  });

  test('an abort stops mid-answer: the words so far, their usage, then done/aborted', async () => {
    const controller = new AbortController();
    const paced = new DemoProvider({ wordDelayMs: 1 });
    const events: ChatEvent[] = [];
    for await (const e of paced.streamChat(ask('Почему небо голубое?', { signal: controller.signal }))) {
      events.push(e);
      if (events.length === 3) controller.abort();
    }
    expect(events.filter((e) => e.type === 'delta')).toHaveLength(3);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'aborted' });
    expect(events.at(-2)).toMatchObject({ type: 'usage', outputTokens: countTokens(textOf(events)) });
  });

  test('a non-streaming call with an aborted signal throws aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await demo.completeChat(ask('Вопрос', { signal: controller.signal })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
  });
});
