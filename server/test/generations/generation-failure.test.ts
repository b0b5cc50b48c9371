import { describe, expect, it } from 'vitest';
import { GENERATION_FAILURES } from '@app/contracts';
import { failureText, generationFailure, type GenerationFailure } from '../../src/features/generations/generation-failure.ts';
import { errorFromStatus, privateAddressError } from '../../src/providers/provider-http.ts';
import { PrivateAddressError } from '../../src/providers/provider-network.ts';
import { ProviderError } from '../../src/providers/types.ts';

/* Why a run failed, as its user is told: one cause per kind of provider error, decided in one place. */

const http = (status: number, providerMessage?: string, headers: Record<string, string> = {}) => errorFromStatus(status, new Headers(headers), 'images.generate gpt-image-1', providerMessage ?? '', { providerMessage });

describe('generationFailure', () => {
  it.each<[string, unknown, GenerationFailure]>([
    ['OpenAI’s safety system refusing the prompt (400)', http(400, 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.'), 'contentPolicy'],
    ['gpt-image-1’s moderation (400 moderation_blocked)', http(400, 'Request was rejected by the moderation system: moderation_blocked'), 'contentPolicy'],
    ['a Replicate model’s NSFW check (a failed prediction)', new ProviderError('bad_request', 'prediction p1 failed: NSFW content detected', { providerMessage: 'NSFW content detected' }), 'contentPolicy'],
    ['a parameter the provider does not take (400)', http(400, "Invalid value: '999x999'. Supported values are: '1024x1024'"), 'refused'],
    ['an input Replicate refuses (422)', http(422, 'input.duration: must be less than or equal to 10'), 'refused'],
    ['the provider’s time running out (408)', http(408), 'timeout'],
    ['our deadline firing', new ProviderError('timeout', 'images.generate: timed out'), 'timeout'],
    ['the job’s time running out between polls', new ProviderError('timeout', 'generation: the job ran out of time'), 'timeout'],
    ['a key the provider does not accept (401)', http(401, 'Incorrect API key provided: sk-***'), 'notConfigured'],
    ['a key without access (403)', http(403, 'You are not allowed to sample from this model'), 'notConfigured'],
    ['a model the provider does not know (404)', http(404, 'The model `gpt-image-9` does not exist'), 'notConfigured'],
    ['no key set for the connection', new ProviderError('auth', 'connection X: its key variable X_API_KEY is not set', { misconfigured: true }), 'notConfigured'],
    ['a host its key may not go to', new ProviderError('bad_request', 'connection X: the key of X_API_KEY may go nowhere', { misconfigured: true }), 'notConfigured'],
    ['a private address not allowed', privateAddressError(new PrivateAddressError('internal.example', '10.0.0.5'), 'images.generate'), 'notConfigured'],
    ['a connection switched off', new ProviderError('bad_request', 'connection X is switched off', { misconfigured: true }), 'notConfigured'],
    ['an account out of credit (402, Replicate)', http(402, 'You have insufficient credit to run this model'), 'noCredits'],
    ['an account out of quota (429 insufficient_quota, OpenAI)', http(429, 'You exceeded your current quota, please check your plan and billing details.'), 'noCredits'],
    ['too many requests (429)', http(429, 'Rate limit reached for requests', { 'retry-after': '20' }), 'rateLimited'],
    ['a provider outage (503)', http(503, 'The engine is currently overloaded'), 'unavailable'],
    ['a connection that breaks', new ProviderError('unavailable', 'images.generate: connection failed (ECONNREFUSED)'), 'unavailable'],
    ['a model that failed to make anything (a failed prediction)', new ProviderError('bad_request', 'prediction p2 failed: CUDA out of memory', { providerMessage: 'CUDA out of memory' }), 'failed'],
    ['a reply not in the protocol', new ProviderError('invalid_response', 'images.generate: no images in the reply'), 'failed'],
    ['anything that is not a provider’s error', new Error('generation 5: started 12 times without finishing'), 'failed'],
  ])('%s → %s', (_what, err, cause) => {
    expect(generationFailure(err)).toBe(cause);
  });

  it('misconfigured errors are never retried, whatever their kind', () => {
    expect(new ProviderError('unavailable', 'x', { misconfigured: true }).retryable).toBe(false);
    expect(new ProviderError('unavailable', 'x').retryable).toBe(true);
  });

  it('says why in Russian, then that the tokens came back', () => {
    expect(failureText(http(429, 'Rate limit reached'))).toBe('Сервис генерации перегружен запросами. Попробуйте через несколько минут. Токены возвращены на баланс');
    expect(failureText(new Error('x'))).toBe(`${GENERATION_FAILURES.failed}. Токены возвращены на баланс`);
  });
});
