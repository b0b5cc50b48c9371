import { useEffect, useState } from 'react';
import type * as MarkdownKit from './markdown/markdown.tsx';

let markdownKit: typeof MarkdownKit | null = null;
let markdownKitLoading: Promise<typeof MarkdownKit> | null = null;

/**
 * Fetches the Markdown renderer (`@app/kit/markdown`: react-markdown with GFM parsing and
 * rehype-sanitize, ≈42 KB gz) the first time a text is shown, not with the page: the catalogue's
 * list, an empty history or an admin list never fetch it. This module is bundled by each widget
 * that imports it (`@app/kit/lazy-markdown`, not a host module: the loader's boot chunk has no
 * room), so the renderer is a lazy chunk of that widget's build. A failed fetch is tried again
 * next time.
 */
export function loadMarkdown(): Promise<typeof MarkdownKit> {
  markdownKitLoading ??= import('./markdown/markdown.tsx').then(
    (kit) => (markdownKit = kit),
    (err: unknown) => {
      markdownKitLoading = null;
      throw err;
    },
  );
  return markdownKitLoading;
}

/** Starts fetching the renderer before a text needs it (on hover or focus of what opens one). */
export const preloadMarkdown = (): void => {
  loadMarkdown().catch(() => undefined);
};

/**
 * A model's text as Markdown, drawn the way the chat draws its answers (the same module): until
 * the renderer's chunk is there (or if it cannot be fetched) the text shows as it is, its line
 * breaks kept, so nothing is missing while it loads.
 */
export function LazyMarkdown({ text, className }: { text: string; className?: string }) {
  const [kit, setKit] = useState(markdownKit);
  useEffect(() => {
    if (!kit) loadMarkdown().then(setKit, () => undefined);
  }, [kit]);
  return <div className={className}>{kit ? <kit.Markdown text={text} /> : <div className="md md--plain">{text}</div>}</div>;
}
