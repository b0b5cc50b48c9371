import { hmacSha256, safeEqual } from '../lib/crypto.ts';
import type { MailMessage } from './mailer.ts';

/** Where a mail's one-click unsubscribe goes (RFC 8058): a user's id and a token only the server can make. */
export const UNSUBSCRIBE_PATH = '/mail/unsubscribe';

export interface UnsubscribeKeys {
  appSecret: string;
  publicUrl: string;
}

const tokenOf = (secret: string, userId: number) => hmacSha256(secret, `unsubscribe:${String(userId)}`, 'base64url').slice(0, 32);

/** Whether `token` is the unsubscribe token of `userId`. */
export const isUnsubscribeToken = (secret: string, userId: number, token: string) => safeEqual(token, tokenOf(secret, userId));

export const unsubscribeUrl = (keys: UnsubscribeKeys, userId: number) => `${keys.publicUrl}${UNSUBSCRIBE_PATH}?u=${String(userId)}&t=${tokenOf(keys.appSecret, userId)}`;

/**
 * Every mail carries `List-Unsubscribe` (the one-click link and the settings page's address) and
 * `List-Unsubscribe-Post`: a mail client's «Отписаться» turns off the notices that may be turned
 * off; the notices of a coming charge stay, as the offer promises them.
 */
export function withUnsubscribe(keys: UnsubscribeKeys, userId: number, message: MailMessage): MailMessage {
  return {
    ...message,
    headers: {
      ...message.headers,
      'List-Unsubscribe': `<${unsubscribeUrl(keys, userId)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
