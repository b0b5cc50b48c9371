/**
 * Parts of the site's stylesheet that style one part of the site only: the chat, the generation
 * catalogue and history, the admin panel. The loader's build moves their rules out of
 * `loader.css` into `loader-<group>.css` (`split-styles.ts`), and a page links a group's file
 * only when one of its widgets is among the group's: a page downloads, parses and matches the
 * rules it can use, not the whole site's.
 *
 * A rule belongs to a group when every one of its selectors names a class of the group (the
 * group's name, or a class starting with it and a hyphen: `.chat`, `.chat-main__head`); every
 * other rule stays in `loader.css`. So a group's class may be used only by its widgets and by
 * the server's skeletons of them (a test holds every page to it).
 */
export const STYLE_GROUPS = {
  chat: ['chat'],
  gen: ['ai-products', 'ai-history', 'admin'],
  admin: ['admin'],
} as const satisfies Record<string, readonly string[]>;

export type StyleGroup = keyof typeof STYLE_GROUPS;

export const STYLE_GROUP_NAMES = Object.keys(STYLE_GROUPS) as StyleGroup[];

/** The file of a group's rules in the loader's build. */
export const styleGroupFile = (group: StyleGroup): string => `loader-${group}.css`;

/** The group a class name belongs to, if any. */
export function groupOfClass(name: string): StyleGroup | undefined {
  return STYLE_GROUP_NAMES.find((group) => name === group || name.startsWith(`${group}-`));
}

/** The groups the page's widgets need, in the order of {@link STYLE_GROUPS}. */
export function styleGroupsOf(widgets: Iterable<string>): StyleGroup[] {
  const names = new Set(widgets);
  return STYLE_GROUP_NAMES.filter((group) => STYLE_GROUPS[group].some((widget) => names.has(widget)));
}
