const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text PostgreSQL can store: without NUL characters (text columns refuse them) and without lone
 * UTF-16 surrogates (jsonb refuses them; a cut through an emoji leaves one), replaced by U+FFFD.
 */
export function storable(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd');
}

/** The first `max` characters of `text` (code points, so an emoji is never cut in half). */
export function firstChars(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') : text;
}
