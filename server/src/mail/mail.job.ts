import { defineJob } from '../jobs/job.ts';
import { MailMessageSchema, maskCodes } from './mailer.ts';

/**
 * Outgoing mail is a job: enqueued with the data that caused it, retried if SMTP fails. Eight
 * run at once per worker process, so a burst of registrations gets its codes in seconds.
 */
export const mailJob = defineJob({
  name: 'mail.send',
  payload: MailMessageSchema,
  options: { retries: 8, concurrency: 8, expireInSeconds: 120 },
  // Only who it was for: the message carries codes and sign-in links.
  redact: (message) => {
    const { to, subject } = message as { to?: unknown; subject?: unknown };
    return { to, subject: typeof subject === 'string' ? maskCodes(subject) : null };
  },
  run: (ctx, message) => ctx.metrics.countMail(ctx.mailer.send(message)),
});
