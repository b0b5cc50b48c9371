import { memo, useEffect, useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import type { Pluggable, PluggableList } from 'unified';
import { remarkGfmParse } from './remark-gfm-parse.ts';
import { remarkSoftBreaks } from './remark-soft-breaks.ts';

/** What a code block's button says. */
const TEXTS = { copy: 'Копировать', copied: 'Скопировано' } as const;

/** The text of a rendered node tree (a code block's children). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

/** A code block with its language and a «Копировать» button. */
function CodeBlock({ children, ...rest }: ComponentPropsWithoutRef<'pre'>) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const code = textOf(children).replace(/\n$/, '');
  const className = children && typeof children === 'object' && 'props' in children ? (children.props as { className?: string }).className : undefined;
  const language = /language-([\w+#-]+)/.exec(className ?? '')?.[1];
  const copy = () => {
    void navigator.clipboard
      .writeText(code)
      .then(() => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 1500);
      })
      .catch(() => undefined);
  };
  return (
    <div className="md-code">
      <div className="md-code__bar">
        <span className="md-code__lang">{language ?? 'код'}</span>
        <button type="button" className="md-code__copy" onClick={copy} aria-label={copied ? TEXTS.copied : `${TEXTS.copy} код`}>
          <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
            {copied ? <path d="M3 8.5l3 3 7-7" /> : <path d="M5.5 5.5V3.2c0-.4.3-.7.7-.7h6.6c.4 0 .7.3.7.7v6.6c0 .4-.3.7-.7.7h-2.3M3.2 5.5h6.6c.4 0 .7.3.7.7v6.6c0 .4-.3.7-.7.7H3.2a.7.7 0 0 1-.7-.7V6.2c0-.4.3-.7.7-.7z" />}
          </svg>
          {copied ? TEXTS.copied : TEXTS.copy}
        </button>
      </div>
      {/* Focusable: a line wider than the block scrolls it sideways, and the keyboard must reach that too. */}
      <pre {...rest} tabIndex={0}>
        {children}
      </pre>
    </div>
  );
}

const components: Components = {
  pre: ({ node: _node, ...props }) => <CodeBlock {...props} />,
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  table: ({ node: _node, ...props }) => (
    <div className="md-table">
      <table {...props} />
    </div>
  ),
};

/** A rehype plugin (with its options) that colours code blocks, run before the sanitizer. */
export type MarkdownHighlight = Pluggable;

const remarkPlugins = [remarkGfmParse, remarkSoftBreaks];
const rehypePlugins: PluggableList = [rehypeSanitize];

/**
 * The sanitizer's GitHub schema, plus what a code highlighter adds (and nothing else): `hljs` on a
 * block's `code` beside its `language-*`, and `hljs-*` class names on the `span`s of its tokens.
 */
const HIGHLIGHTED_SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [['className', /^language-./, 'hljs']],
    span: [...(defaultSchema.attributes?.span ?? []), ['className', /^hljs-[a-z]/]],
  },
};

/** Closes the marks a text cut short left open (LazyMarkdown's `cut`): with the renderer, so it is fetched only with it. */
export { closeOpenMarkdown } from './close-open.ts';

/**
 * A model's answer as Markdown (GitHub flavour: tables, task lists, strikethrough, autolinks; no
 * footnotes), sanitized (no raw HTML, no script links). Memoized on its text and highlighter: a
 * finished answer is parsed once. Widgets draw it through `@app/kit/lazy-markdown`
 * (`LazyMarkdown`, `useMarkdownKit`), which makes it a lazy chunk of their build, fetched the first
 * time a text is shown. `highlight` is a rehype plugin that colours code blocks (the chat's, loaded
 * when an answer has one); the sanitizer runs after it and keeps only its `hljs` class names.
 */
export const Markdown = memo(function Markdown({ text, highlight }: { text: string; highlight?: MarkdownHighlight | null | undefined }) {
  return (
    <div className="md">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={highlight ? [highlight, [rehypeSanitize, HIGHLIGHTED_SCHEMA]] : rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
