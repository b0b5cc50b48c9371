import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@app/contracts/browser';
import { STOPPED } from './fixtures.ts';
import { fakeApi, renderChat, input, ready, start, delta, resetBetweenTests } from './chat-test-kit.tsx';
import { highlighterChunk } from './use-highlight.ts';

resetBetweenTests();

const CODE_ANSWER = [
  'Вот пример:',
  '',
  '```ts',
  'const greet = (name: string): string => `Привет, ${name}`;',
  'export class Greeter {}',
  '```',
  '',
  '```brainfuck',
  'if (x) { return "<b>" }',
  '```',
  '',
  '```html',
  '<script>alert(1)</script>',
  '```',
  '',
  '```',
  '<script>alert(2)</script>',
  '```',
].join('\n');

const withCode: ChatMessage[] = [
  { id: 1, role: 'user', text: 'Покажи код', model: null, status: 'done', words: 0, images: [], created_at: '2025-05-20T12:00:00Z' },
  { id: 2, role: 'assistant', text: CODE_ANSWER, model: 'GPT-4o', status: 'done', words: 40, images: [], created_at: '2025-05-20T12:00:01Z' },
];

/** The code block labelled with this language. */
const block = (language: string) => screen.getByText(language, { selector: '.md-code__lang' }).closest('.md-code') as HTMLElement;
const codeOf = (language: string) => block(language).querySelector('pre > code') as HTMLElement;

describe('Chat: code in answers', () => {
  it('fetches the highlighter only for an answer with code in a language it knows', async () => {
    const load = vi.spyOn(highlighterChunk, 'load');
    const { api } = fakeApi({ messages: (id) => (id === 41 ? withCode : STOPPED) });
    window.history.replaceState(null, '', '/chat?id=37');
    const first = renderChat(api);
    expect(await screen.findByText(/Жил-был в далёком городе/)).toBeInTheDocument();
    await ready();
    expect(load).not.toHaveBeenCalled();
    first.unmount();
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await waitFor(() => expect(codeOf('ts').querySelector('.hljs-keyword')).not.toBeNull());
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('colours a ts block by its tokens, leaves an unknown language plain, keeps <script> as text and the copy button copying the code', async () => {
    const { api } = fakeApi({ messages: () => withCode });
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await screen.findByText('ts', { selector: '.md-code__lang' });
    const ts = codeOf('ts');
    await waitFor(() => expect(ts.querySelector('span.hljs-keyword')).not.toBeNull());
    expect([...ts.querySelectorAll('.hljs-keyword')].map((k) => k.textContent)).toEqual(expect.arrayContaining(['const', 'export', 'class']));
    expect(ts).toHaveClass('hljs', 'language-ts');
    expect(ts.textContent).toBe('const greet = (name: string): string => `Привет, ${name}`;\nexport class Greeter {}\n');

    // A language the chat does not highlight, and a block with none: their code is one plain text.
    expect(codeOf('brainfuck').children).toHaveLength(0);
    expect(codeOf('brainfuck').textContent).toBe('if (x) { return "<b>" }\n');
    expect(codeOf('код').children).toHaveLength(0);

    // Highlighted HTML stays text: tags are coloured spans, never elements of the page.
    const html = codeOf('html');
    await waitFor(() => expect(html.querySelector('span.hljs-tag')).not.toBeNull());
    expect(html.textContent).toBe('<script>alert(1)</script>\n');
    expect(document.querySelector('.md script, .md b')).toBeNull();
    expect(codeOf('код').textContent).toBe('<script>alert(2)</script>\n');

    // The sanitizer keeps only the highlighter's class names (highlight.js adds others, e.g. «class_»).
    const classes = [...document.querySelectorAll('.md-code pre *')].flatMap((el) => [...el.classList]);
    expect(classes.length).toBeGreaterThan(5);
    expect(classes.filter((c) => !/^(hljs(-[a-z_]+)?|language-.+)$/.test(c))).toEqual([]);

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(within(block('ts')).getByRole('button', { name: 'Копировать код' }));
    expect(writeText).toHaveBeenCalledWith('const greet = (name: string): string => `Привет, ${name}`;\nexport class Greeter {}');
  });

  it('a block being written stays plain until its closing fence comes, then is coloured', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Напиши код{Enter}');
    await stream.emit(start(), delta('Первый:\n\n```python\nimport os\n```\n\nВторой:\n\n```python\nimport sys\n'));
    const [whole, open] = await screen.findAllByText('python', { selector: '.md-code__lang' }).then((labels) => labels.map((l) => l.closest('.md-code')?.querySelector('code') as HTMLElement));
    if (!whole || !open) throw new Error('two code blocks expected');
    await waitFor(() => expect(whole.querySelector('.hljs-keyword')).toHaveTextContent('import'));
    expect(open.textContent.trim()).toBe('import sys');
    expect(open.children).toHaveLength(0);
    await stream.emit(delta('```\n\nГотово.'));
    await waitFor(() => expect(screen.getAllByText('python', { selector: '.md-code__lang' }).at(-1)?.closest('.md-code')?.querySelector('.hljs-keyword')).toHaveTextContent('import'));
  });
});
