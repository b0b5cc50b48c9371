import type { Element, ElementContent, Root } from 'hast';
import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';
import { grammarOf, type Grammar } from './code-languages.ts';

/**
 * The chat's code highlighter (a chunk of its own, fetched only for an answer with a code block in
 * a language of `code-languages.ts`): lowlight, highlight.js's core as a syntax tree, with each
 * grammar a chunk of its own registered the first time an answer needs it.
 */
const GRAMMARS: Record<Grammar, () => Promise<{ default: LanguageFn }>> = {
  '1c': () => import('highlight.js/lib/languages/1c'),
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  nginx: () => import('highlight.js/lib/languages/nginx'),
  php: () => import('highlight.js/lib/languages/php'),
  pgsql: () => import('highlight.js/lib/languages/pgsql'),
  powershell: () => import('highlight.js/lib/languages/powershell'),
  python: () => import('highlight.js/lib/languages/python'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const lowlight = createLowlight();
const loading = new Map<Grammar, Promise<void>>();

/** Registers these grammars (each fetched once; a failed fetch is tried again next time). */
export async function loadGrammars(grammars: readonly Grammar[]): Promise<void> {
  await Promise.all(
    grammars.map((grammar) => {
      let done = loading.get(grammar);
      if (!done) {
        done = GRAMMARS[grammar]().then(
          (module) => lowlight.register(grammar, module.default),
          (err: unknown) => {
            loading.delete(grammar);
            throw err;
          },
        );
        loading.set(grammar, done);
      }
      return done;
    }),
  );
}

/** Whether every one of these grammars is registered. */
export const hasGrammars = (grammars: readonly Grammar[]): boolean => grammars.every((g) => lowlight.registered(g));

const textOf = (node: ElementContent): string => (node.type === 'text' ? node.value : node.type === 'element' ? node.children.map(textOf).join('') : '');

/** The `code` of every `pre` (a fenced or indented block), in document order. */
function codeBlocksOf(node: Root | Element, into: Element[] = []): Element[] {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    const code = child.tagName === 'pre' ? child.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code') : undefined;
    if (code) into.push(code);
    else codeBlocksOf(child, into);
  }
  return into;
}

/**
 * A rehype plugin: the code of each block whose language has a registered grammar becomes
 * highlight.js's tokens (`span`s with `hljs-*` class names, its text kept as text) and the block's
 * `code` gets `hljs`; other blocks stay as they are. `skipLast`: the last block is still being
 * written (its closing fence has not come), so it stays plain until it is whole, rather than
 * changing colours as each token grows.
 */
export function rehypeHighlightCode(options: { skipLast: boolean }) {
  return (tree: Root): void => {
    const blocks = codeBlocksOf(tree);
    if (options.skipLast) blocks.pop();
    for (const code of blocks) {
      const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
      const language = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
      const grammar = language ? grammarOf(language) : null;
      if (!grammar || !lowlight.registered(grammar)) continue;
      code.children = lowlight.highlight(grammar, code.children.map(textOf).join('')).children.filter((c): c is ElementContent => c.type !== 'doctype');
      code.properties.className = [...classes, 'hljs'];
    }
  };
}
