import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { z } from 'zod';

export const MailMessageSchema = z.object({
  to: z.email(),
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string(),
});
export type MailMessage = z.infer<typeof MailMessageSchema>;

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when `smtpUrl` is set; otherwise each message is written as one `.eml` file to
 * `<dataDir>/mail/` and its subject logged, so a local user can read codes and links.
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; dataDir: string; log: Pick<Logger, 'info'> }): Mailer {
  if (opts.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
        opts.log.info({ to: message.to, subject: message.subject }, 'mail sent');
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
      opts.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file (SMTP_URL is not set)');
    },
    close: () => transport.close(),
  };
}
