import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookHeaders } from './types.ts';

/** How far a webhook's timestamp may be from now (either way) before it is refused as a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

function header(headers: WebhookHeaders, name: string): string | undefined {
  const direct = headers[name];
  const value = direct ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a webhook's signature headers could be valid before its body is read: `webhook-id`,
 * `webhook-timestamp` (Unix seconds within {@link WEBHOOK_TOLERANCE_SECONDS} of `nowMs`) and
 * `webhook-signature` are there. Cheap, so a forgery without them is refused before its body is
 * read; the signature itself is checked over the body by {@link verifyReplicateWebhook}.
 */
export function hasWebhookSignatureHeaders(headers: WebhookHeaders, nowMs = Date.now()): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= WEBHOOK_TOLERANCE_SECONDS;
}

/**
 * Verifies a webhook signed the way Replicate (and the Standard Webhooks scheme) signs:
 * `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` entries over
 * `${webhook-id}.${webhook-timestamp}.${raw body}`, keyed with the base64-decoded part of the
 * secret after `whsec_`; the timestamp (Unix seconds) must be within
 * {@link WEBHOOK_TOLERANCE_SECONDS} of `nowMs`. Comparisons are timing-safe.
 */
export function verifyReplicateWebhook(headers: WebhookHeaders, rawBody: Buffer | string, secret: string, nowMs = Date.now()): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !hasWebhookSignatureHeaders(headers, nowMs)) return false;
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest();
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // Every entry is compared, so the time taken does not tell which one matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}
