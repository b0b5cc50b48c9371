import type { FastifyInstance } from 'fastify';
import { LEGAL_KINDS, LEGAL_PAGES, privacyRoutes } from '@app/contracts';
import { html } from '@app/host-pages';
import { clearSessionCookie } from '../accounts/auth.plugin.ts';
import { mountRoute } from '../../lib/routes.ts';
import { deleteAccount } from './account-deletion.service.ts';
import { adminLegal, exportUser, legalDocument, publishLegal } from './privacy.service.ts';

const publishedOn = (iso: string) => new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Moscow' }).format(new Date(iso));

export default async function privacyRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const secure = ctx.config.publicUrl.startsWith('https://');

  mountRoute(app, privacyRoutes.legal, async ({ params }) => legalDocument(ctx.db, params.kind));
  mountRoute(app, privacyRoutes.adminLegal, async ({ params }) => adminLegal(ctx.db, params.kind));
  mountRoute(app, privacyRoutes.adminPublishLegal, async ({ viewer, params, body }) => publishLegal(ctx, viewer.id, params.kind, body.body));
  mountRoute(app, privacyRoutes.adminExportUser, async ({ viewer, params }) => exportUser(ctx, viewer.id, params.id));

  mountRoute(app, privacyRoutes.deleteAccount, async ({ reply, viewer, body }) => {
    await deleteAccount(ctx, viewer.id, body.password);
    clearSessionCookie(reply, secure);
    return { deleted: true as const };
  });

  // The policy and the offer: server-rendered text anyone may read (the registration form links the policy).
  for (const kind of LEGAL_KINDS) {
    app.get(LEGAL_PAGES[kind].path, { schema: { hide: true } }, async (req, reply) => {
      const doc = await legalDocument(ctx.db, kind);
      const paragraphs = doc.body.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
      return app.sendPage(req, reply, {
        access: 'any',
        layout: 'app',
        render: () => ({
          title: doc.title,
          widgets: [],
          body: () =>
            html`<article class="card legal" data-version="${doc.version}"><h1>${doc.title}</h1><p class="legal__meta">Редакция ${doc.version} от ${publishedOn(doc.published_at)}</p>${paragraphs.map(
              (p) => html`<p>${p}</p>`,
            )}</article>`,
        }),
      });
    });
  }
}
