import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/job.ts';
import { randomToken } from '../../lib/crypto.ts';
import { mailJob } from '../../mail/mail.job.ts';
import { passwordResetMail } from '../../mail/templates.ts';
import { withUnsubscribe } from '../../mail/unsubscribe.ts';
import { countOpenResets, insertPasswordReset } from './password-resets.queries.ts';
import { findUserByEmail, lockUser } from './users.queries.ts';
import { mailKeys } from '../../mail/mail-keys.ts';

/** Reset links: how long one works, and how many may be open at once (no more mail while they are). */
export const RESET_LINK = { ttlMinutes: 60, maxOpen: 3 } as const;

/**
 * Mails a reset link when the account exists and is not blocked, unless `RESET_LINK.maxOpen` of its
 * links are still open: then its owner already holds a working one (a stranger's requests mailed
 * them to the owner), and nobody can fill the mailbox.
 */
export async function mailPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.blocked_at) return;
  const token = randomToken('', 32);
  const link = `${ctx.config.publicUrl}/password/reset/${token}?email=${encodeURIComponent(user.email)}`;
  await ctx.db.transaction().execute(async (tx) => {
    await lockUser(tx, user.id);
    if ((await countOpenResets(tx, user.id)) >= RESET_LINK.maxOpen) return;
    await insertPasswordReset(tx, user.id, token, new Date(Date.now() + RESET_LINK.ttlMinutes * 60_000));
    await ctx.jobs.send(mailJob, withUnsubscribe(mailKeys(ctx), user.id, passwordResetMail(user.email, link, RESET_LINK.ttlMinutes)), { tx });
  });
}

/**
 * A reset request's work, after its reply: whether the email has an account, and its link mailed.
 * The request queues this job whatever the email, so its reply takes the same time either way.
 */
export const passwordResetJob = defineJob({
  name: 'accounts.password-reset',
  payload: z.object({ email: z.string().max(254) }),
  options: { retries: 5, concurrency: 4, expireInSeconds: 60 },
  // A failure is recorded without the email: a request names an address, not an account.
  redact: () => ({}),
  run: (ctx, { email }) => mailPasswordReset(ctx, email),
});
