import type { FastifyInstance, FastifyReply } from 'fastify';
import { adminBillingRoutes as r } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { adminTariff, adminTariffs, createTariff, updateTariff } from './admin-tariffs.service.ts';
import { adminLog, adminPayment, adminPayments, adminSubscription, adminSubscriptions, refundPayment } from './admin-payments.service.ts';
import { adminCard, adminCards, createCard, removeCard, updateCard } from './admin-cards.service.ts';
import { adminChat, adminChats, adminGenerations } from './admin-activity.service.ts';
import { analytics } from './admin-analytics.service.ts';
import { adminSettings, updateSettings } from './admin-settings.service.ts';
import { openExport, type CsvExport } from './admin-exports.service.ts';
import { contentDisposition } from '../files/file-names.ts';

/** A CSV export as an attachment, streamed. */
async function sendCsv(reply: FastifyReply, opening: Promise<CsvExport>): Promise<FastifyReply> {
  const { fileName, body } = await opening;
  return reply.headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': contentDisposition('attachment', fileName), 'cache-control': 'no-store' }).send(body);
}

/** Admin calls of the plans, subscriptions, payments, dashboard cards, runs, chats, analytics, settings and the CSV exports. */
export default async function adminBillingRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, r.tariffs, ({ query }) => adminTariffs(ctx, query));
  mountRoute(app, r.tariff, ({ params }) => adminTariff(ctx, params.id));
  mountRoute(app, r.createTariff, ({ viewer, body }) => createTariff(ctx, viewer, body));
  mountRoute(app, r.updateTariff, ({ viewer, params, body }) => updateTariff(ctx, viewer, params.id, body));
  mountRoute(app, r.subscriptions, ({ query }) => adminSubscriptions(ctx, query));
  mountRoute(app, r.subscription, ({ params }) => adminSubscription(ctx, params.id));
  mountRoute(app, r.payments, ({ query }) => adminPayments(ctx, query));
  mountRoute(app, r.payment, ({ params }) => adminPayment(ctx.db, params.id));
  mountRoute(app, r.refundPayment, ({ viewer, params, body }) => refundPayment(ctx, viewer, params.id, body));
  mountRoute(app, r.subscriptionLog, ({ query }) => adminLog(ctx, query));
  mountRoute(app, r.dashboardCards, ({ query }) => adminCards(ctx, query));
  mountRoute(app, r.dashboardCard, ({ params }) => adminCard(ctx, params.id));
  mountRoute(app, r.createDashboardCard, ({ viewer, body }) => createCard(ctx, viewer, body));
  mountRoute(app, r.updateDashboardCard, ({ viewer, params, body }) => updateCard(ctx, viewer, params.id, body));
  mountRoute(app, r.deleteDashboardCard, ({ viewer, params }) => removeCard(ctx, viewer, params.id));
  mountRoute(app, r.generations, ({ query }) => adminGenerations(ctx, query));
  mountRoute(app, r.chats, ({ query }) => adminChats(ctx, query));
  mountRoute(app, r.chat, ({ params, query }) => adminChat(ctx, params.id, query.before));
  mountRoute(app, r.analytics, ({ query }) => analytics(ctx, query));
  mountRoute(app, r.settings, () => adminSettings(ctx));
  mountRoute(app, r.updateSettings, ({ viewer, body }) => updateSettings(ctx, viewer, body));
  mountRoute(app, r.exportLedger, ({ reply, query }) => sendCsv(reply, openExport(ctx, 'ledger', query)));
  mountRoute(app, r.exportPayments, ({ reply, query }) => sendCsv(reply, openExport(ctx, 'payments', query)));
}
