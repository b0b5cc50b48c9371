import type { AppContext } from '../context.ts';
import type { UnsubscribeKeys } from './unsubscribe.ts';

/** What the unsubscribe links of a context's mail are made with. */
export const mailKeys = (ctx: Pick<AppContext, 'secrets' | 'config'>): UnsubscribeKeys => ({ appSecret: ctx.secrets.appSecret, publicUrl: ctx.config.publicUrl });
