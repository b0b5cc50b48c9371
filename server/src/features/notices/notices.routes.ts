import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPTIONAL_NOTICE_KINDS, SETTINGS_PATH, privacyRoutes } from '@app/contracts';
import { html } from '@app/host-pages';
import { mountRoute } from '../../lib/routes.ts';
import { isUnsubscribeToken, UNSUBSCRIBE_PATH } from '../../mail/unsubscribe.ts';
import { noticeSettings, updateNoticeSettings } from './notices.service.ts';
import { turnOptionalNoticesOff } from './notices.queries.ts';

/** The link's user and token, when they are one user's and its token. */
function linkUser(req: FastifyRequest, secret: string): number | null {
  const { u, t } = req.query as Record<string, unknown>;
  if (typeof u !== 'string' || typeof t !== 'string' || !/^\d{1,10}$/.test(u) || t.length > 64) return null;
  const id = Number(u);
  return id > 0 && id <= 2_147_483_647 && isUnsubscribeToken(secret, id, t) ? id : null;
}

export default async function noticesRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  mountRoute(app, privacyRoutes.noticeSettings, async ({ viewer }) => noticeSettings(ctx, viewer.id));
  mountRoute(app, privacyRoutes.updateNoticeSettings, async ({ viewer, body }) => updateNoticeSettings(ctx, viewer.id, body));

  const page = (req: FastifyRequest, reply: FastifyReply, status: number, title: string, text: string, form: boolean) =>
    app.sendPage(req, reply.code(status), {
      access: 'any',
      layout: 'auth',
      render: () => ({
        title,
        widgets: [],
        body: () =>
          html`<div class="card notice-page"><h1 class="card__title">${title}</h1><p>${text}</p>${
            form ? html`<form method="post"><button class="btn btn-primary" type="submit">Отписаться</button></form>` : ''
          }<p><a href="${SETTINGS_PATH}">Настройки писем</a></p></div>`,
      }),
    });

  const INVALID = 'Ссылка для отписки недействительна. Настроить письма можно в настройках аккаунта.';
  // A mail scanner may open the link: the page only asks, the POST (the button, or a mail client's one-click) unsubscribes.
  app.get(UNSUBSCRIBE_PATH, { schema: { hide: true } }, (req, reply) =>
    linkUser(req, ctx.secrets.appSecret) === null
      ? page(req, reply, 404, 'Отписка от писем', INVALID, false)
      : page(req, reply, 200, 'Отписка от писем', 'Не присылать письма о неудачном продлении и об окончании подписки? Письма перед списанием денег приходят всегда: их отключить нельзя.', true),
  );
  app.post(UNSUBSCRIBE_PATH, { schema: { hide: true } }, async (req, reply) => {
    const userId = linkUser(req, ctx.secrets.appSecret);
    if (userId === null || !(await turnOptionalNoticesOff(ctx.db, userId, OPTIONAL_NOTICE_KINDS))) return page(req, reply, 404, 'Отписка от писем', INVALID, false);
    return page(req, reply, 200, 'Вы отписались', 'Письма о неудачном продлении и об окончании подписки больше не придут. Письма перед списанием денег приходят всегда.', false);
  });
}
