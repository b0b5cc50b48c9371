/** highlight.js ships no types for its grammars' files: each is a language definition. */
declare module 'highlight.js/lib/languages/*' {
  import type { LanguageFn } from 'highlight.js';

  const language: LanguageFn;
  export default language;
}
