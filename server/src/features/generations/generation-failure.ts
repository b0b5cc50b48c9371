import { GENERATION_FAILURES, GENERATION_TEXTS } from '@app/contracts';
import { ProviderError } from '../../providers/types.ts';

/** A cause of failure the user is told about (`GENERATION_FAILURES`). */
export type GenerationFailure = keyof typeof GENERATION_FAILURES;

/** Words of providers refusing content: OpenAI's safety system and `content_policy_violation`/`moderation_blocked`, Replicate models' NSFW checks. */
const CONTENT_POLICY = /content[\s_-]?policy|safety|moderation|nsfw|sensitive content|inappropriate|flagged/i;
/** An account out of money: OpenAI answers it as a 429 `insufficient_quota` («You exceeded your current quota…»). */
const NO_CREDIT = /insufficient[\s_-]?(quota|credit|funds|balance)|exceeded your current quota|billing/i;

/**
 * Why a run failed, from the provider's error: its kind, HTTP status, the provider's words and
 * whether the connection's setup is at fault. The one place this is decided; anything that is
 * not a provider's error (a run started too many times, a bug) is `failed`.
 */
export function generationFailure(err: unknown): GenerationFailure {
  if (!(err instanceof ProviderError)) return 'failed';
  // The provider's words and ours (a prediction's own error is in both).
  const words = `${err.providerMessage ?? ''}\n${err.message}`;
  // 404: the provider does not know the model (or its address is wrong).
  if (err.misconfigured || err.kind === 'auth' || err.status === 404) return 'notConfigured';
  if (err.status === 402 || (err.kind === 'rate_limited' && NO_CREDIT.test(words))) return 'noCredits';
  switch (err.kind) {
    case 'timeout':
      return 'timeout';
    case 'rate_limited':
      return 'rateLimited';
    case 'unavailable':
      return 'unavailable';
    case 'bad_request':
      if (CONTENT_POLICY.test(words)) return 'contentPolicy';
      // With a status the provider answered and refused; without one the model itself failed (a prediction).
      return err.status === undefined ? 'failed' : 'refused';
    default:
      return 'failed';
  }
}

/** What the user reads about a failed run: why, and that its tokens came back. */
export const failureText = (err: unknown): string => `${GENERATION_FAILURES[generationFailure(err)]}. ${GENERATION_TEXTS.refunded}`;
