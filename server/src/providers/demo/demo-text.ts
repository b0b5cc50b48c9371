/** FNV-1a, 32 bits: a stable hash for picking templates, colours and shapes from text. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small seeded generator (mulberry32): the same seed gives the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKEN = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/**
 * The demo's tokenizer: every run of letters, digits and underscores is one token, and so is
 * every other non-space character (punctuation, symbols, each character of an emoji);
 * whitespace is free. «Привет, мир!» is 4 tokens. Real models count differently (a Russian word
 * is often 2–4 tokens); the demo only needs a count that is deterministic and plausible.
 */
export function countTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/** Extra input tokens of each message (its role and separators), as OpenAI's chat format costs about. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Input tokens of each attached image (OpenAI's price of a low-detail image). */
export const IMAGE_TOKENS = 85;

/** Russian plural: `plural(2, ['изображение', 'изображения', 'изображений'])` → `изображения`. */
export function plural(n: number, forms: readonly [string, string, string]): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return forms[0];
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return forms[1];
  return forms[2];
}

/** The text on one line, at most `max` characters, cut at a word boundary with «…». */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?—-]+$/u, '')}…`;
}
