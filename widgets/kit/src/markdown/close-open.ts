/**
 * A model's text still being written (or cut at its length limit), made whole Markdown: a code
 * fence, inline code, bold or italics opened and not yet closed are closed at its end, so «_Это
 * ответ…» shows in italics, never with its raw marks. Whole text is answered as it is.
 */
export function closeOpenMarkdown(text: string): string {
  const fences = text.match(/^\s{0,3}(```|~~~)/gm)?.length ?? 0;
  if (fences % 2 === 1) return `${text}\n\`\`\``;
  const lastBlock = text.slice(text.lastIndexOf('\n\n') + 1);
  let closing = '';
  const count = (re: RegExp) => lastBlock.match(re)?.length ?? 0;
  if (count(/`/g) % 2 === 1) return `${text}\``;
  const withoutCode = lastBlock.replace(/`[^`]*`/g, '');
  const bold = withoutCode.match(/\*\*|__/g) ?? [];
  const opened = bold.length % 2 === 1 ? (bold.at(-1) ?? '') : '';
  const rest = withoutCode.replace(/\*\*|__/g, '');
  // A single mark opens emphasis only at a word's start (not «snake_case», not a list's «* »).
  const singles = rest.match(/(^|[^\p{L}\p{N}\\])[*_](?=[^\s*_])|(?<=[^\s*_])[*_](?=$|[^\p{L}\p{N}])/gmu) ?? [];
  if (singles.length % 2 === 1) {
    const mark = (singles.at(-1) ?? '').trim().slice(-1);
    closing += mark === '*' || mark === '_' ? mark : '';
  }
  closing += opened;
  return closing ? `${text.replace(/\s+$/, '')}${closing}` : text;
}
