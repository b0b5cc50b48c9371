import { useEffect, useMemo, useState } from 'react';
import type { MarkdownHighlight } from '@app/kit/markdown';
import { codeBlocks, type Grammar } from './code-languages.ts';
import type * as Highlighter from './highlighter.ts';

let highlighter: typeof Highlighter | null = null;
let highlighterLoading: Promise<typeof Highlighter> | null = null;

/** Fetches the highlighter's chunk (an object, so a test can see whether it is asked for). */
export const highlighterChunk = {
  load: (): Promise<typeof Highlighter> => import('./highlighter.ts'),
};

/** The highlighter with these grammars registered: its chunk and theirs fetched once each; a failed fetch is tried again next time. */
async function loadHighlighter(grammars: readonly Grammar[]): Promise<typeof Highlighter> {
  highlighterLoading ??= highlighterChunk.load().then(
    (module) => (highlighter = module),
    (err: unknown) => {
      highlighterLoading = null;
      throw err;
    },
  );
  const module = await highlighterLoading;
  await module.loadGrammars(grammars);
  return module;
}

/**
 * The rehype plugin that highlights an answer's code blocks, or null while the answer has none in a
 * language the chat highlights (then nothing is fetched) and until the highlighter and the
 * grammars it needs are there (the code shows plain meanwhile: only colours change, nothing
 * moves). While the answer is written (`writing`), a block still open stays plain until its
 * closing fence comes; its grammar is fetched as it opens, so it is coloured as soon as it is whole.
 */
export function useHighlight(text: string, writing: boolean): MarkdownHighlight | null {
  const { grammars, open } = useMemo(() => codeBlocks(text), [text]);
  const wanted = grammars.join(' ');
  const [ready, setReady] = useState<{ module: typeof Highlighter; grammars: string } | null>(() =>
    highlighter && wanted && highlighter.hasGrammars(grammars) ? { module: highlighter, grammars: wanted } : null,
  );
  useEffect(() => {
    if (!wanted || ready?.grammars === wanted) return;
    let current = true;
    loadHighlighter(wanted.split(' ') as Grammar[]).then(
      (module) => current && setReady({ module, grammars: wanted }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [wanted, ready?.grammars]);
  const skipLast = writing && open;
  const hasCode = wanted !== '';
  // A new plugin only when a grammar came or the last block closed: the answer's Markdown is memoized on it.
  return useMemo(() => (ready && hasCode ? [ready.module.rehypeHighlightCode, { skipLast }] : null), [ready, hasCode, skipLast]);
}
