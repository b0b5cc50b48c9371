import { PlainMarkdown, useMarkdownKit } from '@app/kit/lazy-markdown';
import { closeOpenMarkdown } from './markdown-while-writing.ts';
import { useHighlight } from './use-highlight.ts';

/**
 * An answer as Markdown, its code highlighted by language. The renderer is a chunk of the chat's
 * build (a new chat's first view has no answer to draw): the chat fetches it as soon as a chat is
 * opened or a message typed, and holds a history until it is there, so this shows the text as it
 * is only when an answer streams in before the chunk (or the chunk cannot be fetched). An answer
 * being written is drawn with its open Markdown closed.
 */
export function AnswerText({ text, writing }: { text: string; writing: boolean }) {
  const { kit } = useMarkdownKit();
  const highlight = useHighlight(text, writing);
  return kit ? <kit.Markdown text={writing ? closeOpenMarkdown(text) : text} highlight={highlight} /> : <PlainMarkdown text={text} />;
}
