import { useEffect, useState } from 'react';
import type * as MarkdownKit from './markdown/markdown.tsx';

let markdownKit: typeof MarkdownKit | null = null;
let markdownKitLoading: Promise<typeof MarkdownKit> | null = null;

/**
 * Fetches the Markdown renderer (`@app/kit/markdown`: react-markdown with GFM parsing and
 * rehype-sanitize, ≈43 KB gz) the first time a text is shown, not with the page: the catalogue's
 * list, an empty history, an admin list or a new chat never fetch it. This module is bundled by each widget
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

/** The renderer's module once its chunk is there (`kit`), or that it could not be fetched (`failed`). */
export interface MarkdownKitState {
  kit: typeof MarkdownKit | null;
  failed: boolean;
}

/**
 * The renderer, fetched once `wanted` (at once when an earlier caller already has it): `kit` is
 * null until its chunk is there; `failed` says the fetch failed (the caller draws the text as it
 * is), and the next caller that wants it tries again.
 */
export function useMarkdownKit(wanted = true): MarkdownKitState {
  const [state, setState] = useState<MarkdownKitState>(() => ({ kit: markdownKit, failed: false }));
  const kit = state.kit ?? markdownKit;
  useEffect(() => {
    if (!wanted || kit) return;
    let current = true;
    loadMarkdown().then(
      (loaded) => current && setState({ kit: loaded, failed: false }),
      () => current && setState({ kit: null, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [wanted, kit]);
  return kit === state.kit ? state : { kit, failed: false };
}

/** A model's text as it is, its line breaks kept: what shows until the renderer's chunk is there (`LazyMarkdown`'s, written out there to keep the widgets that use only it as small as they were). */
export function PlainMarkdown({ text }: { text: string }) {
  return <div className="md md--plain">{text}</div>;
}

/**
 * A model's text as Markdown, drawn the way the chat draws its answers (the same module): until
 * the renderer's chunk is there (or if it cannot be fetched) the text shows as it is, its line
 * breaks kept, so nothing is missing while it loads. `cut`: the text may end mid-way (an answer
 * stopped at its length limit), so marks it opened are closed rather than shown raw.
 */
export function LazyMarkdown({ text, className, cut = false }: { text: string; className?: string; cut?: boolean }) {
  const [kit, setKit] = useState(markdownKit);
  useEffect(() => {
    if (!kit) loadMarkdown().then(setKit, () => undefined);
  }, [kit]);
  return <div className={className}>{kit ? <kit.Markdown text={cut ? kit.closeOpenMarkdown(text) : text} /> : <div className="md md--plain">{text}</div>}</div>;
}
