import type { MailMessage } from './mailer.ts';

const PRODUCT = 'Нейростудия';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

/** A mail's HTML: the title and the body in the service's card. */
export function mailLayout(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1f2330;background:#f5f6fb;padding:24px">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${bodyHtml}
<p style="color:#6b7080;font-size:12px;margin-top:32px">Вы получили это письмо, потому что ваш адрес указан в аккаунте Нейростудии. Если это были не вы, просто проигнорируйте письмо.</p>
</div></body></html>`;
}

export function confirmationCodeMail(to: string, code: string, validMinutes: number): MailMessage {
  return {
    to,
    subject: `${code} — код подтверждения почты Нейростудии`,
    text: `Ваш код подтверждения: ${code}\n\nВведите его на сайте, чтобы подтвердить почту. Код действует ${String(validMinutes)} минут.`,
    html: mailLayout(
      'Подтвердите почту',
      `<p>Ваш код подтверждения:</p><p style="font-size:32px;letter-spacing:6px;font-weight:bold">${code}</p><p>Введите его на сайте, чтобы подтвердить почту. Код действует ${String(validMinutes)} минут.</p>`,
    ),
  };
}

export function passwordResetMail(to: string, link: string, validMinutes: number): MailMessage {
  return {
    to,
    subject: `Сброс пароля — ${PRODUCT}`,
    text: `Чтобы задать новый пароль, откройте ссылку:\n${link}\n\nСсылка действует ${String(validMinutes)} минут и работает один раз.`,
    html: mailLayout(
      'Сброс пароля',
      `<p>Чтобы задать новый пароль, нажмите на кнопку:</p><p><a href="${escapeHtml(link)}" style="display:inline-block;background:#5b5bd6;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">Задать новый пароль</a></p><p style="font-size:13px;color:#6b7080">Или откройте ссылку: ${escapeHtml(link)}</p><p>Ссылка действует ${String(validMinutes)} минут и работает один раз.</p>`,
    ),
  };
}
