import { generationRoutes } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { hmacSha256, safeEqual } from '../../lib/crypto.ts';

/*
 * The address a run's prediction sends its webhook to carries the run's id and a token only this
 * service can make, so a request to the webhook route without a valid pair is refused before a
 * byte of its body is read (signature headers alone can be forged by anyone; the signature over
 * the body can only be checked once the body is in).
 */

/** The key of the tokens: derived from the app secret, never the secret itself. */
const keyOf = (appSecret: string) => hmacSha256(appSecret, 'replicate-webhook-url', 'base64url');

/** The token of one run's webhook address: HMAC-SHA256 of the run's id. */
export const webhookToken = (appSecret: string, runId: number) => hmacSha256(keyOf(appSecret), `run:${String(runId)}`, 'base64url');

/** The webhook address of run `runId`: the route, the run and its token. */
export const webhookUrl = (ctx: AppContext, runId: number) =>
  `${ctx.config.publicUrl}${generationRoutes.replicateWebhook.path}?run=${String(runId)}&token=${webhookToken(ctx.secrets.appSecret, runId)}`;

/** Whether `run` and `token` of a webhook's query belong together (compared in constant time). */
export function isWebhookTokenValid(appSecret: string, run: unknown, token: unknown): boolean {
  if (typeof run !== 'string' || !/^[1-9]\d{0,9}$/.test(run) || typeof token !== 'string' || token.length > 100) return false;
  return safeEqual(token, webhookToken(appSecret, Number(run)));
}
