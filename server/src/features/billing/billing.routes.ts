import type { FastifyInstance } from 'fastify';
import { billingRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { cancelSubscription, paymentStatus, startPackagePayment, startSubscriptionPayment, subscribeCheck, subscriptionStatus } from './billing.service.ts';
import { autoChargeHistory, packageHistory, subscriptionHistory } from './orders.service.ts';
import { recordConversion } from './invoices.queries.ts';

export default async function billingRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, billingRoutes.tariffs, async ({ query }) => [...(await ctx.plans.list(ctx.db, query.frontend === '0'))]);
  mountRoute(app, billingRoutes.subscribeCheck, ({ viewer }) => subscribeCheck(ctx, viewer.id));
  mountRoute(app, billingRoutes.cancelSubscription, ({ viewer }) => cancelSubscription(ctx, viewer.id));
  mountRoute(app, billingRoutes.paymentKey, async () => ctx.config.cloudpayments.publicId);
  mountRoute(app, billingRoutes.payPackage, ({ viewer, query }) => startPackagePayment(ctx, viewer, query.id));
  mountRoute(app, billingRoutes.paySubscription, ({ viewer, query, req }) => startSubscriptionPayment(ctx, viewer, query.id, query.promo === undefined ? undefined : { code: query.promo, ip: req.ip }));
  mountRoute(app, billingRoutes.paymentStatus, ({ viewer, query }) => paymentStatus(ctx, viewer.id, query.id));
  mountRoute(app, billingRoutes.subscriptionStatus, ({ viewer }) => subscriptionStatus(ctx, viewer.id));
  mountRoute(app, billingRoutes.subscriptionHistory, ({ viewer, query }) => subscriptionHistory(ctx, viewer.id, query.page));
  mountRoute(app, billingRoutes.packagePurchases, ({ viewer, query }) => packageHistory(ctx, viewer.id, query.page));
  mountRoute(app, billingRoutes.autoCharges, ({ viewer, query }) => autoChargeHistory(ctx, viewer.id, query.page));
  mountRoute(app, billingRoutes.conversion, async ({ viewer }) => ({ recorded: await recordConversion(ctx.db, viewer.id) }));
}
