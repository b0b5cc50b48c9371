import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Processor } from 'unified';

/**
 * GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks, footnotes) for
 * react-markdown: the parsing half of `remark-gfm`, with the same micromark and mdast
 * extensions. remark-gfm also registers the serializer (`mdast-util-to-markdown`, ≈7 KB gz),
 * which a renderer never runs.
 */
export function remarkGfmParse(this: Processor): void {
  // remark-parse reads these two lists (declared by its types, which are not imported here).
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfm());
  (data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown());
}
