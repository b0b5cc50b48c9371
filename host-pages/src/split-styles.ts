import postcss, { type AtRule, type ChildNode, type Root, type Rule } from 'postcss';
import { groupOfClass, STYLE_GROUP_NAMES, type StyleGroup } from './style-groups.ts';

/*
 * Build time only (the loader's build): splits the site's stylesheet into what every page links
 * and the rules of each style group (`style-groups.ts`).
 */

/** A class named in a selector: `.name`. */
const CLASS = /\.(-?[_a-zA-Z][\w-]*)/g;

/** A pseudo-class's argument (`:not(.x)`, `:is(.a, .b)`): what it names need not be on the element. */
const ARGUMENT = /\([^()]*\)/g;

function withoutArguments(selector: string): string {
  let current = selector;
  for (let previous = ''; previous !== current; ) {
    previous = current;
    current = current.replace(ARGUMENT, '');
  }
  return current;
}

/** The group whose class a selector requires (outside any pseudo-class's argument); the first when it names several. */
function groupOfSelector(selector: string): StyleGroup | undefined {
  for (const match of withoutArguments(selector).matchAll(CLASS)) {
    const group = groupOfClass(match[1] ?? '');
    if (group) return group;
  }
  return undefined;
}

/** A rule's group: the one every selector of it requires; none when one requires none or they differ. */
export function groupOfRule(rule: Pick<Rule, 'selectors'>): StyleGroup | undefined {
  const groups = new Set(rule.selectors.map(groupOfSelector));
  if (groups.size !== 1) return undefined;
  const [group] = groups;
  return group;
}

/** The at-rules whose rules are split one by one (each part keeps the condition); any other at-rule stays whole in the base. */
const CONDITIONAL = new Set(['media', 'container', 'supports']);

export interface SplitStyles {
  /** What every page links (`loader.css`). */
  base: string;
  /** Each group's rules, in the order they had (empty when a group has none). */
  groups: Record<StyleGroup, string>;
}

/**
 * Moves each group's rules out of `css` — rules at the top, and rules inside `@media`,
 * `@container` and `@supports` (the condition goes with them) — and leaves everything else,
 * in its order, in the base.
 */
export function splitStyles(css: string): SplitStyles {
  const base = postcss.parse(css);
  const parts = Object.fromEntries(STYLE_GROUP_NAMES.map((g) => [g, postcss.root()])) as Record<StyleGroup, Root>;
  const move = (node: ChildNode): StyleGroup | undefined => (node.type === 'rule' ? groupOfRule(node) : undefined);
  for (const node of [...base.nodes]) {
    if (node.type === 'rule') {
      const group = move(node);
      if (group) parts[group].append(node.remove());
    } else if (node.type === 'atrule' && CONDITIONAL.has(node.name.toLowerCase())) {
      const atRule: AtRule = node;
      for (const group of STYLE_GROUP_NAMES) {
        const inner = (atRule.nodes ?? []).filter((child) => move(child) === group);
        if (inner.length === 0) continue;
        const copy = atRule.clone({ nodes: [] });
        for (const child of inner) copy.append(child.remove());
        parts[group].append(copy);
      }
      if ((atRule.nodes ?? []).length === 0) atRule.remove();
    }
  }
  return {
    base: base.toString(),
    groups: Object.fromEntries(STYLE_GROUP_NAMES.map((g) => [g, parts[g].toString()])) as Record<StyleGroup, string>,
  };
}
