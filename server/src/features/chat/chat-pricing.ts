import type { ProviderProtocol } from '../ai/ai.table.ts';
import { DemoProvider } from '../../providers/demo/demo.provider.ts';
import { countTokens } from '../../providers/demo/demo-text.ts';
import type { ChatMessageInput } from '../../providers/types.ts';

/**
 * Words charged for `tokens` at `rate` words per token (PRODUCT.md: ceil(tokens × rate)). The
 * rate is a decimal (numeric(12, 4)): a product like 3 × 1.1 = 3.3000000000000003 must not round
 * up a whole word.
 */
export const wordsFor = (tokens: number, rate: number): number => Math.max(0, Math.ceil(tokens * rate - 1e-9));

/** An image of a request as a vision model may count it at most (OpenAI: a 2048-pixel image in high detail). */
const IMAGE_TOKENS_MAX = 1105;
/** An image as a vision model usually counts it (OpenAI's low detail), for a fair estimate. */
const IMAGE_TOKENS_TYPICAL = 85;
const MESSAGE_OVERHEAD_TOKENS = 4;

const WORD_CHARS = /[\p{L}\p{N}_]/gu;
const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;

/**
 * An upper bound of the tokens of `text` for real tokenizers: a letter or digit is at most half a
 * token (runs of them share tokens), any other visible character a whole one, a character beyond
 * the BMP (emoji) three. `chat_send` bounds the history the same way in SQL.
 */
export function textTokensBound(text: string): number {
  const word = text.match(WORD_CHARS)?.length ?? 0;
  const astral = text.match(ASTRAL)?.length ?? 0;
  const other = Array.from(text.replace(/\s+/g, '')).length - word - astral;
  return Math.ceil(word / 2) + other + astral * 3;
}

/**
 * The most input tokens a request may be counted (the hold's worst case): the bound above, 4 a
 * message and 1105 an image; never less than the demo's own count for the demo.
 */
export function inputTokensBound(protocol: ProviderProtocol, messages: readonly ChatMessageInput[]): number {
  const bound = messages.reduce((sum, m) => sum + textTokensBound(m.text) + MESSAGE_OVERHEAD_TOKENS + (m.images?.length ?? 0) * IMAGE_TOKENS_MAX, 0);
  return protocol === 'demo' ? Math.max(bound, DemoProvider.inputTokens({ messages: [...messages] })) : bound;
}

/**
 * A fair estimate of the input tokens of a request the provider reported no usage for (a stopped
 * answer): exact for the demo; otherwise about three characters a token, 4 a message and 85 an
 * image. Never more than the bound, so a stop never costs more than the hold assumed.
 */
export function inputTokensEstimate(protocol: ProviderProtocol, messages: readonly ChatMessageInput[]): number {
  if (protocol === 'demo') return DemoProvider.inputTokens({ messages: [...messages] });
  return messages.reduce((sum, m) => sum + Math.ceil(m.text.length / 3) + MESSAGE_OVERHEAD_TOKENS + (m.images?.length ?? 0) * IMAGE_TOKENS_TYPICAL, 0);
}

/** Output tokens of a partial answer the provider reported no usage for (stopped, or its process died): a fair estimate, not a bound. */
export function outputTokensEstimate(protocol: ProviderProtocol | null, text: string): number {
  if (protocol === 'demo') return countTokens(text);
  return Math.ceil(text.length / 3);
}
