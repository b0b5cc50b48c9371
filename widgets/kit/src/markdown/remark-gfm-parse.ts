import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import type { Processor } from 'unified';

/**
 * GitHub-flavoured Markdown for react-markdown: tables, task lists, strikethrough and autolink
 * literals — the parsing half of `remark-gfm` without footnotes (`[^1]` stays plain text; a chat
 * answer has no use for them, and they cost ≈5 KB raw). Each extension is registered on its own,
 * the same ones `micromark-extension-gfm` and `mdast-util-gfm` combine; remark-gfm would also
 * register the serializer (`mdast-util-to-markdown`, ≈7 KB gz), which a renderer never runs.
 */
export function remarkGfmParse(this: Processor): void {
  // remark-parse reads these two lists (declared by its types, which are not imported here).
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfmAutolinkLiteral(), gfmStrikethrough(), gfmTable(), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmAutolinkLiteralFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown());
}
