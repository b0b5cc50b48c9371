interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/** Splits text at its line breaks into text and `break` nodes. */
function split(node: Node): Node[] {
  if (node.type !== 'text' || !node.value?.includes('\n')) return [node];
  return node.value.split('\n').flatMap((part, i) => [...(i > 0 ? [{ type: 'break' }] : []), ...(part ? [{ type: 'text', value: part }] : [])]);
}

function walk(node: Node): void {
  if (!node.children) return;
  node.children = node.children.flatMap(split);
  for (const child of node.children) walk(child);
}

/**
 * A single line break inside a paragraph stays a line break (verse, addresses, short lines
 * of a list), as chat users expect, where Markdown would join the lines (`remark-breaks` does
 * the same). Code keeps its own lines: its text is not a `text` node.
 */
export function remarkSoftBreaks() {
  return (tree: Node) => {
    walk(tree);
  };
}
