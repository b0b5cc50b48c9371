import { memo, useEffect, useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
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
          {copied ? TEXTS.copied : TEXTS.copy}
        </button>
      </div>
      <pre {...rest}>{children}</pre>
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

const remarkPlugins = [remarkGfmParse, remarkSoftBreaks];
const rehypePlugins = [rehypeSanitize];

/**
 * A model's answer as Markdown (GitHub flavour: tables, task lists, strikethrough, autolinks; no
 * footnotes), sanitized (no raw HTML, no script links). Memoized on its text: a finished answer
 * is parsed once. The chat bundles it (`@app/kit/markdown`: its answers are the page); the other
 * widgets draw it through `LazyMarkdown` (`@app/kit/lazy-markdown`), which makes it a lazy chunk
 * of their build, fetched the first time a text is shown.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="md">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
