import { toStorableText } from '@app/contracts';

/**
 * Text PostgreSQL can store: without NUL characters (text columns refuse them) and without lone
 * UTF-16 surrogates (jsonb refuses them; a cut through an emoji leaves one), replaced by U+FFFD.
 * The contracts' own function, so a schema that cleans text cleans it the same way.
 */
export const storable = toStorableText;

/** The first `max` characters of `text` (code points, so an emoji is never cut in half). */
export function firstChars(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') : text;
}
