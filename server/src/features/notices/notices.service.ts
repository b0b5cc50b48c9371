import { NOTICE_KINDS, NOTICE_LABELS, OPTIONAL_NOTICE_KINDS, SETTINGS_PATH, type NoticeSettings, type OptionalNoticeKind } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { mailJob } from '../../mail/mail.job.ts';
import { mailKeys } from '../../mail/mail-keys.ts';
import { noticeMail } from '../../mail/notice-templates.ts';
import { withUnsubscribe } from '../../mail/unsubscribe.ts';
import { dueNotices, noticesOff, recordNotice, setNoticesOff } from './notices.queries.ts';

/** Where a notice's reader cancels the plan: the plans page with its «Отменить». */
export const CANCEL_PATH = '/dashboard/user/payment';

/**
 * Mails every notice due at `now`, each exactly once whatever number of workers run this at once:
 * the notice's row and its mail job are written in one transaction, and a second worker's insert
 * of the same (subscription, period, kind) does nothing. Answers how many it mailed.
 */
export async function sendDueNotices(ctx: AppContext, now = new Date(ctx.clock())): Promise<number> {
  let sent = 0;
  const keys = mailKeys(ctx);
  for (const notice of await dueNotices(ctx.db, now)) {
    const mailed = await ctx.db.transaction().execute(async (tx) => {
      if (!(await recordNotice(tx, notice))) return false;
      const mail = noticeMail(notice.kind, {
        to: notice.email,
        plan: notice.plan,
        amountKopecks: notice.amountKopecks,
        date: notice.date,
        cancelUrl: `${ctx.config.publicUrl}${CANCEL_PATH}`,
        settingsUrl: `${ctx.config.publicUrl}${SETTINGS_PATH}`,
      });
      await ctx.jobs.send(mailJob, withUnsubscribe(keys, notice.userId, mail), { tx });
      return true;
    });
    if (mailed) sent += 1;
  }
  return sent;
}

const isOptional = (kind: string): kind is OptionalNoticeKind => (OPTIONAL_NOTICE_KINDS as readonly string[]).includes(kind);

export async function noticeSettings(ctx: AppContext, userId: number): Promise<NoticeSettings> {
  const off = await noticesOff(ctx.db, userId);
  return {
    notices: NOTICE_KINDS.map((kind) => ({ kind, label: NOTICE_LABELS[kind], required: !isOptional(kind), enabled: !off.includes(kind) })),
  };
}

export async function updateNoticeSettings(ctx: AppContext, userId: number, wanted: Record<OptionalNoticeKind, boolean>): Promise<NoticeSettings> {
  await setNoticesOff(
    ctx.db,
    userId,
    OPTIONAL_NOTICE_KINDS.filter((kind) => !wanted[kind]),
  );
  return noticeSettings(ctx, userId);
}
