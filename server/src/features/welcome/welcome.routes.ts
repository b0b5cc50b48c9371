import type { FastifyInstance } from 'fastify';
import { dashboardRoutes, ERROR_CODES, z, type ErrorCode } from '@app/contracts';
import { html, renderErrorPage } from '@app/host-pages';
import { AppError } from '../../lib/app-error.ts';
import { safeEqual } from '../../lib/crypto.ts';
import { authorize, mountRoute } from '../../lib/routes.ts';
import { pageContext } from '../pages/page-context.ts';
import { issueCsrfCookie, XSRF_COOKIE } from '../accounts/csrf.ts';
import { claimWelcomeGift, closeWelcome, handleTelegramUpdate, linkTelegram, sandboxTelegramId, welcomeState } from './welcome.service.ts';
import { addSandboxMember, welcomeFields } from './welcome.queries.ts';
import { assertSandboxOn } from '../settings/settings.store.ts';

const SANDBOX_BOT_ERRORS: Record<string, string> = {
  STALE_LINK: 'Ссылка устарела. Откройте бота заново со страницы «Главная».',
  TAKEN: 'Этот Telegram-аккаунт уже привязан к другому аккаунту Нейростудии.',
  CSRF_MISMATCH: 'Страница устарела. Откройте бота заново со страницы «Главная».',
};

const SandboxBotQuerySchema = z.object({ start: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
const SandboxBotBodySchema = z.object({ start: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), action: z.enum(['open', 'join']) });

export default async function welcomeRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const { telegram } = ctx.config;

  mountRoute(app, dashboardRoutes.welcome, ({ viewer }) => welcomeState(ctx, viewer.id));
  mountRoute(app, dashboardRoutes.welcomeCheck, async ({ viewer }) => ({ claimed: true as const, balances: await claimWelcomeGift(ctx, viewer.id) }));
  mountRoute(app, dashboardRoutes.welcomeClose, async ({ viewer }) => {
    await closeWelcome(ctx, viewer.id);
    return { ok: true as const };
  });

  mountRoute(app, dashboardRoutes.telegramWebhook, async ({ req, body }) => {
    const secret = req.headers['x-telegram-bot-api-secret-token'];
    if (!telegram.webhookSecret || typeof secret !== 'string' || !safeEqual(secret, telegram.webhookSecret)) throw new AppError('INVALID_SIGNATURE');
    await handleTelegramUpdate(ctx, body);
    return { ok: true };
  });

  // The sandbox bot: stands in for t.me/<bot> when no bot token is configured.
  app.get('/sandbox/telegram', { schema: { hide: true } }, async (req, reply) => {
    if (!telegram.sandbox) return renderErrorPage(reply, 404, pageContext(ctx, req));
    const query = SandboxBotQuerySchema.safeParse(req.query);
    if (!query.success) return renderErrorPage(reply, 404, pageContext(ctx, req));
    const csrf = req.cookies[XSRF_COOKIE] ?? issueCsrfCookie(reply, ctx.secrets.appSecret, ctx.config.publicUrl.startsWith('https://'));
    const { done, error } = req.query as Record<string, string | undefined>;
    const channel = ctx.settings.current.telegram_channel;
    const errorText = error ? (SANDBOX_BOT_ERRORS[error] ?? (error in ERROR_CODES ? ERROR_CODES[error as ErrorCode].message : ERROR_CODES.BAD_REQUEST.message)) : null;
    return app.sendPage(req, reply, {
      access: 'user',
      layout: 'auth',
      render: () => ({
        title: 'Тестовый бот',
        banner: html`<strong>Тестовый Telegram.</strong> Без токена бота подписка проверяется в песочнице, а не в Telegram.`,
        widgets: [],
        body: () => html`<section class="card sandbox-bot">
  <h1 class="card__title">Бот Нейростудии (песочница)</h1>
  ${errorText ? html`<div class="alert alert-error" role="alert">${errorText}</div>` : ''}
  ${done === 'join'
    ? html`<div class="alert alert-success" role="status">Готово: аккаунт привязан и вы подписаны на канал ${channel}. Вернитесь на сайт и нажмите «Я подписался».</div>`
    : done === 'open'
      ? html`<div class="alert alert-info" role="status">Аккаунт привязан, но вы ещё не подписаны на канал ${channel}.</div>`
      : html`<p>Так выглядел бы диалог с ботом: он привязывает ваш аккаунт и проверяет подписку на канал ${channel}.</p>`}
  <form method="post" action="/sandbox/telegram" class="form">
    <input type="hidden" name="start" value="${query.data.start}">
    <input type="hidden" name="_token" value="${csrf}">
    <button class="btn btn-primary btn-block" type="submit" name="action" value="join">Подписаться на канал</button>
    <button class="btn btn-secondary btn-block" type="submit" name="action" value="open">Только открыть бота</button>
  </form>
  <p class="sandbox-bot__back"><a href="/dashboard">Вернуться на сайт</a></p>
</section>`,
      }),
    });
  });

  // A plain HTML form: failures come back to the bot page as a message, not as JSON.
  app.post('/sandbox/telegram', { schema: { hide: true } }, async (req, reply) => {
    if (!telegram.sandbox) return renderErrorPage(reply, 404, pageContext(ctx, req));
    const fields = (req.body ?? {}) as Record<string, unknown>;
    const start = typeof fields.start === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(fields.start) ? fields.start : '';
    const back = (query: string) => reply.redirect(`/sandbox/telegram?start=${start}&${query}`, 303);
    try {
      authorize(req, { access: 'user' });
      const viewer = req.viewer;
      if (!viewer) throw new AppError('UNAUTHENTICATED');
      const body = SandboxBotBodySchema.safeParse(fields);
      if (!body.success) return await back('error=BAD_REQUEST');
      assertSandboxOn(ctx, 'telegram');
      const telegramId = sandboxTelegramId(viewer.id);
      const linked = await linkTelegram(ctx, body.data.start, telegramId);
      if (linked === 'unknown-code') {
        const fresh = await welcomeFields(ctx.db, viewer.id);
        if (fresh.telegram_id !== telegramId) return await back('error=STALE_LINK');
      }
      if (linked === 'taken') return await back('error=TAKEN');
      if (body.data.action === 'join') {
        await addSandboxMember(ctx.db, telegramId);
      }
      return await back(`done=${body.data.action}`);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'UNAUTHENTICATED') return reply.redirect(`/login?next=${encodeURIComponent(`/sandbox/telegram?start=${start}`)}`, 303);
      return back(`error=${err.code}`);
    }
  });
}
