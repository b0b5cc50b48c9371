import { describe, expect, it } from 'vitest';
import { closeOpenMarkdown } from './markdown-while-writing.ts';

describe('an answer being written, as whole Markdown', () => {
  it('closes italics, bold, inline code and a code fence left open', () => {
    expect(closeOpenMarkdown('Готово.\n\n_Это ответ демо')).toBe('Готово.\n\n_Это ответ демо_');
    expect(closeOpenMarkdown('Это **важно')).toBe('Это **важно**');
    expect(closeOpenMarkdown('Вызовите `npm')).toBe('Вызовите `npm`');
    expect(closeOpenMarkdown('Код:\n\n```ts\nconst a = 1;')).toBe('Код:\n\n```ts\nconst a = 1;\n```');
  });

  it('leaves whole Markdown, lists and words with underscores as they are', () => {
    for (const text of ['_Это ответ_', '**да** и *нет*', '* пункт\n* ещё', 'snake_case и file_name', 'Код:\n\n```\nx\n```', '2 * 3 = 6']) expect(closeOpenMarkdown(text)).toBe(text);
  });
});
