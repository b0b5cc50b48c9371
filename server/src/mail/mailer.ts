import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config.ts';

export const MailMessageSchema = z.object({
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string(),
  /** Extra headers (`List-Unsubscribe`, `List-Unsubscribe-Post`): names of letters and dashes, values on one line. */
  headers: z.record(z.string().regex(/^[A-Za-z][A-Za-z-]{0,60}$/), z.string().max(2000).regex(/^[^\r\n]*$/)).optional(),
});
export type MailMessage = z.infer<typeof MailMessageSchema>;

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A subject as logs may keep it: codes (four digits or more) masked, `••••••`. */
export const maskCodes = (text: string): string => text.replace(/\d{4,}/g, '••••••');

/**
 * SMTP when `smtpUrl` is set; otherwise each message is written as one `.eml` file to
 * `<dataDir>/mail/`. The log names each message with its subject, codes masked — except in
 * development with mail to files, where the line shows the subject whole, so a local user reads
 * a confirmation code (the subject's first six digits) right there: in the `.eml` the subject and
 * the text are encoded (RFC 2047, base64).
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; dataDir: string; env: Config['env']; log: Pick<Logger, 'info'> }): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
        if (opts.env === 'production') opts.log.info({ to: message.to, subject: maskCodes(message.subject) }, 'mail sent');
        else opts.log.info(`mail to ${message.to} sent: «${maskCodes(message.subject)}»`);
      },
      close: () => transport.close(),
    };
  }
  const dir = path.join(opts.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      // The random part keeps two messages of one millisecond apart.
      const file = path.join(dir, `${stamp}-${randomBytes(4).toString('hex')}-${message.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      if (opts.env === 'production') opts.log.info({ to: message.to, subject: maskCodes(message.subject), file }, 'mail written to file (SMTP_URL is not set)');
      else opts.log.info(`mail to ${message.to}: «${message.subject}» (SMTP_URL is not set: ${file})`);
    },
    close: () => transport.close(),
  };
}
