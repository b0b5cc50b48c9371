/**
 * A plan's description lines as the plans page draws them (`@app/contracts/plan-lines`): split at
 * their icon markers, «медиа токен…» agreeing with its number. The tariffs widget bundles it and
 * the server's skeleton of the plans page draws with it; outside the shared browser entry, which
 * every page loads.
 */
// The markers from the shared browser entry (a page has it already), not a second copy of its module.
import { DESCRIPTION_MARKERS } from '@app/contracts/browser';
import { pluralRu } from './errors.ts';

/** The forms of «медиа токен» after a whole number: one, a few, many. */
const MEDIA_TOKEN_FORMS = ['медиа токен', 'медиа токена', 'медиа токенов'] as const;

/**
 * «медиа токен…» after a number inside a text staff typed (a plan's description line) made to
 * agree with the number as it is written, which stays as typed: `300 медиа токенов`,
 * `1 медиа токен`, `2 медиа токена`, `2,5 медиа токена` (a fraction takes the genitive singular).
 */
export const withMediaAgreement = (text: string) =>
  text.replace(/(\d[\d\u00a0\u202f ]*?)([.,]\d+)?(\s+)медиа\s+токен[а-яё]*/giu, (_, whole: string, fraction: string | undefined, space: string) => {
    const noun = fraction ? MEDIA_TOKEN_FORMS[1] : pluralRu(Number(whole.replace(/[\s\u00a0\u202f]/g, '')), MEDIA_TOKEN_FORMS);
    return `${whole}${fraction ?? ''}${space}${noun}`;
  });

export type DescriptionPart = { type: 'text'; text: string } | { type: 'icon'; icon: 'words' | 'media' };

const MARKER_RE = /(\[\[words\]\]|\[\[media\]\])/;

/**
 * A plan's description line split at its icon markers (`[[words]]`, `[[media]]`), as staff typed
 * it, «медиа токен…» agreeing with its number: the plans page draws it, and the page's skeleton
 * before it.
 */
export function descriptionParts(line: string): DescriptionPart[] {
  return line
    .split(MARKER_RE)
    .filter((part) => part !== '')
    .map((part): DescriptionPart => {
      if (part === DESCRIPTION_MARKERS.words) return { type: 'icon', icon: 'words' };
      if (part === DESCRIPTION_MARKERS.media) return { type: 'icon', icon: 'media' };
      return { type: 'text', text: withMediaAgreement(part) };
    });
}
