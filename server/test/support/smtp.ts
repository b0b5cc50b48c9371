import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Headers by lower-case name (the last of a repeated one). */
  headers: Record<string, string>;
}

/** A real SMTP server in-process; tests read codes and links from what it receives. */
export class TestSmtp {
  readonly messages: ReceivedMail[] = [];
  private readonly waiters: (() => void)[] = [];
  private server: SMTPServer;
  port = 0;
  /** Messages being received right now, and the most at once so far (mail delivery runs in parallel). */
  inFlight = 0;
  maxInFlight = 0;

  /** `delayMs` holds every message that long before accepting it, as a slow mail server would. */
  constructor(private readonly delayMs = 0) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        this.inFlight += 1;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          new Promise((resolve) => setTimeout(resolve, this.delayMs))
            .then(() => PostalMime.parse(Buffer.concat(chunks)))
            .then((mail) => {
              this.messages.push({
                to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
                subject: mail.subject ?? '',
                text: mail.text ?? '',
                html: mail.html ?? '',
                headers: Object.fromEntries(mail.headers.map((h) => [h.key.toLowerCase(), h.value])),
              });
              for (const wake of this.waiters.splice(0)) wake();
              callback();
            })
            .catch((err: unknown) => callback(err as Error))
            .finally(() => {
              this.inFlight -= 1;
            });
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${String(this.port)}`;
  }

  /** The first message to `to` whose subject or text matches, waiting for it to arrive. */
  async waitFor(to: string, match: RegExp = /./, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.to.includes(to.toLowerCase()) && (match.test(m.subject) || match.test(m.text)));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} matching ${String(match)} within ${String(timeoutMs)} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The 6-digit code of the latest confirmation mail to `to`. */
  async confirmationCode(to: string): Promise<string> {
    const mail = await this.waitFor(to, /код подтверждения/i);
    const latest = [...this.messages].reverse().find((m) => m.to.includes(to.toLowerCase()) && /код подтверждения/i.test(m.subject)) ?? mail;
    const code = /(\d{6})/.exec(latest.subject)?.[1];
    if (!code) throw new Error(`no code in "${latest.subject}"`);
    return code;
  }

  /** The reset link of the latest reset mail to `to`. */
  async resetLink(to: string): Promise<string> {
    await this.waitFor(to, /сброс пароля/i);
    const latest = [...this.messages].reverse().find((m) => m.to.includes(to.toLowerCase()) && /сброс пароля/i.test(m.subject));
    const link = /(https?:\/\/\S+\/password\/reset\/\S+)/.exec(latest?.text ?? '')?.[1];
    if (!link) throw new Error('no reset link in the mail');
    return link;
  }

  clear(): void {
    this.messages.length = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
