import type { NoticeKind } from '@app/contracts';
import type { MailMessage } from './mailer.ts';
import { escapeHtml, mailLayout } from './templates.ts';

/** What a notice says about the plan. */
export interface NoticeFacts {
  to: string;
  plan: string;
  amountKopecks: number;
  /** The charge's date (the period's end), or when the plan ended. */
  date: Date;
  /** Where the plan is cancelled (the plans page) and where notices are turned off. */
  cancelUrl: string;
  settingsUrl: string;
}

const rub = (kopecks: number) => `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 }).format(kopecks / 100)} ₽`;
/** Mail is read anywhere: the date is Moscow's, as the service's prices and support are. */
const day = (date: Date) => new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Moscow' }).format(date);

function compose(facts: NoticeFacts, subject: string, lines: string[], link: { label: string; url: string } | null): MailMessage {
  const footer = `Настроить письма: ${facts.settingsUrl}`;
  const text = [...lines, ...(link ? [`${link.label}: ${link.url}`] : []), '', footer].join('\n');
  const html = mailLayout(
    subject,
    `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}${
      link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#5b5bd6;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">${escapeHtml(link.label)}</a></p>` : ''
    }<p style="font-size:13px;color:#6b7080"><a href="${escapeHtml(facts.settingsUrl)}">Настроить письма</a></p>`,
  );
  return { to: facts.to, subject, text, html };
}

/** The mail of a notice: the amount, the date and how to cancel where a charge is coming. */
export function noticeMail(kind: NoticeKind, facts: NoticeFacts): MailMessage {
  const amount = rub(facts.amountKopecks);
  const date = day(facts.date);
  const cancel = { label: 'Отменить подписку', url: facts.cancelUrl };
  switch (kind) {
    case 'trial_end':
      return compose(
        facts,
        `Завтра закончится пробный период — спишем ${amount}`,
        [`Пробный период тарифа «${facts.plan}» заканчивается ${date}.`, `В этот день с вашей карты будет списано ${amount} за месяц, дальше подписка продлевается каждый месяц.`, 'Если продлевать не нужно, отмените подписку до этой даты — пробный период продолжит действовать до конца.'],
        cancel,
      );
    case 'renewal':
      return compose(
        facts,
        `Через 3 дня продлим подписку за ${amount}`,
        [`Подписка «${facts.plan}» продлится ${date}: с вашей карты будет списано ${amount}.`, 'Если продлевать не нужно, отмените подписку до этой даты — она будет действовать до конца оплаченного периода.'],
        cancel,
      );
    case 'renewal_failed':
      return compose(
        facts,
        'Не удалось продлить подписку',
        [`Списать ${amount} за подписку «${facts.plan}» не получилось (${date}).`, 'Проверьте, что на карте достаточно средств: мы попробуем ещё раз. Можно оформить подписку заново на странице тарифов.'],
        { label: 'Открыть тарифы', url: facts.cancelUrl },
      );
    case 'plan_ended':
      return compose(facts, 'Подписка закончилась', [`Подписка «${facts.plan}» закончилась ${date}.`, 'Накопленные слова и медиатокены остаются на балансе. Продлить доступ можно на странице тарифов.'], {
        label: 'Открыть тарифы',
        url: facts.cancelUrl,
      });
  }
}
