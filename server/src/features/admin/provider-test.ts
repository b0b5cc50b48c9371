import { performance } from 'node:perf_hooks';
import { ADMIN_AI_TEXTS, type ProviderTestResult } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { privateAddressIn } from '../../providers/provider-network.ts';
import { ProviderError } from '../../providers/types.ts';
import { findConnection } from '../ai/ai.queries.ts';
import { firstTalkingModel } from './admin-ai.queries.ts';
import { destinationError, keyIsSet, privateHostError } from './admin-ai-models.service.ts';

/** The longest a test call may take, whatever the connection's own timeout. */
export const PROVIDER_TEST_MAX_SECONDS = 20;
const MAX_TEXT = 500;

/** `text` with every occurrence of `secret` masked: a provider that echoes the key in its reply must not show it to anyone. */
const masked = (text: string, secret: string | undefined) => (secret ? text.split(secret).join('***') : text);

/**
 * The provider's own words (OpenAI's `error.message`, Replicate's `detail`), the key masked, then
 * cut (so a key at the cut cannot half-show); nothing when it sent none — a raw body (an HTML
 * page, whatever a wrong address answers) is never shown.
 */
function providerDetail(err: ProviderError, secret: string | undefined): string {
  const detail = err.providerMessage === undefined ? '' : masked(err.providerMessage, secret).trim();
  return detail ? `: ${detail.slice(0, 300)}` : '';
}

/** Why a test call failed, in Russian. */
function failure(err: unknown, keyEnv: string | null, secret: string | undefined, seconds: number, timedOut: boolean): string {
  if (timedOut || (err instanceof ProviderError && err.kind === 'timeout')) return `Провайдер не ответил за ${String(seconds)} с`;
  const refused = privateAddressIn(err);
  if (refused) return privateHostError(refused.host, refused.address);
  if (!(err instanceof ProviderError)) return 'Не удалось выполнить запрос к провайдеру';
  const status = err.status === undefined ? '' : ` (HTTP ${String(err.status)})`;
  switch (err.kind) {
    case 'auth':
      return `Провайдер не принял ключ из переменной ${keyEnv ?? '—'}${status}${providerDetail(err, secret)}`;
    case 'rate_limited':
      return `Провайдер ограничивает частоту запросов${status}${err.retryAfterMs === undefined ? '' : `: повторите через ${String(Math.ceil(err.retryAfterMs / 1000))} с`}`;
    case 'unavailable':
      return err.status === undefined ? 'Не удалось соединиться с провайдером: проверьте адрес API' : `Провайдер недоступен${status}${providerDetail(err, secret)}`;
    case 'bad_request':
      return `Провайдер отклонил запрос${status}${providerDetail(err, secret)}`;
    case 'invalid_response':
      return 'Провайдер ответил не по протоколу: проверьте адрес API и протокол';
    case 'aborted':
    case 'timeout':
      return `Провайдер не ответил за ${String(seconds)} с`;
  }
}

/**
 * A small real request through a connection (`ProviderRegistry.probe`): a short chat answer of
 * `model` — by default the connection's first chat or text model — or, for Replicate's protocol,
 * its account. Limited to the connection's timeout and at most {@link PROVIDER_TEST_MAX_SECONDS};
 * answers how long it took and the provider's answer or why it failed, never the key.
 */
export async function testProvider(ctx: AppContext, id: number, body: { model?: string | undefined }): Promise<ProviderTestResult> {
  const conn = await findConnection(ctx.db, id);
  if (!conn) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.providerNotFound);
  const model = conn.protocol === 'replicate' ? null : (body.model ?? (await firstTalkingModel(ctx.db, id)) ?? (conn.protocol === 'demo' ? 'demo' : null));
  if (conn.protocol === 'openai' && model === null) throw fieldError('model', 'У подключения нет чат- или текстовых моделей: укажите модель для проверки');
  const result = (latency: number, outcome: { answer: string } | { error: string }): ProviderTestResult => ({
    ok: 'answer' in outcome,
    latency_ms: Math.round(latency),
    model,
    answer: 'answer' in outcome ? outcome.answer : null,
    error: 'error' in outcome ? outcome.error : null,
  });
  if (conn.protocol !== 'demo') {
    if (!conn.base_url) return result(0, { error: 'Не указан адрес API' });
    if (!keyIsSet(ctx, conn.api_key_env)) return result(0, { error: `Переменная окружения ${conn.api_key_env ?? '—'} не задана на сервере` });
    const destination = destinationError(ctx, conn.base_url, conn.api_key_env);
    if (destination) return result(0, { error: destination });
  }
  const key = conn.api_key_env ? ctx.config.providerKeys[conn.api_key_env] : undefined;
  const seconds = Math.min(conn.timeout_seconds, PROVIDER_TEST_MAX_SECONDS);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), seconds * 1000);
  const started = performance.now();
  try {
    const answer = (await ctx.providers.probe(conn, { model: model ?? '', signal: controller.signal })).trim();
    return result(performance.now() - started, { answer: masked(answer, key).slice(0, MAX_TEXT) || '(пустой ответ)' });
  } catch (err) {
    const latency = performance.now() - started;
    if (!(err instanceof ProviderError)) ctx.log.warn({ err, connection: id }, 'provider test failed unexpectedly');
    return result(latency, { error: masked(failure(err, conn.api_key_env, key, seconds, controller.signal.aborted), key).slice(0, MAX_TEXT) });
  } finally {
    clearTimeout(timer);
  }
}
