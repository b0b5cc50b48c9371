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
const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * The most input tokens a request may be counted: exact for the demo (its own tokenizer), and an
 * upper bound for real models (tokenizers give a Russian or English character at most about half
 * a token on average), so the hold covers the worst case.
 */
export function inputTokensBound(protocol: ProviderProtocol, messages: readonly ChatMessageInput[]): number {
  if (protocol === 'demo') return DemoProvider.inputTokens({ messages: [...messages] });
  return messages.reduce((sum, m) => sum + Math.ceil(m.text.length / 2) + MESSAGE_OVERHEAD_TOKENS + (m.images?.length ?? 0) * IMAGE_TOKENS_MAX, 0);
}

/** Output tokens of a partial answer the provider reported no usage for (stopped, or its process died): a fair estimate, not a bound. */
export function outputTokensEstimate(protocol: ProviderProtocol | null, text: string): number {
  if (protocol === 'demo') return countTokens(text);
  return Math.ceil(text.length / 3);
}
