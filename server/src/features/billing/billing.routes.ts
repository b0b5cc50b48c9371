import type { FastifyInstance } from 'fastify';
import { billingRoutes } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { mountRoute } from '../../lib/routes.ts';
import { autoChargeHistory, cancelSubscription, recordConversion, startPackagePayment, startSubscriptionPayment, subscribeCheck, subscriptionHistory, subscriptionStatus } from './billing.service.ts';
import { listActiveTariffs, toTariffDto } from './tariffs.queries.ts';

export default async function billingRoutesPlugin(app: FastifyInstance): Promise<void> {
  mountRoute(app, billingRoutes.tariffs, async ({ query }) => (await listActiveTariffs(app.db, query.frontend === '0')).map(toTariffDto));
  mountRoute(app, billingRoutes.subscribeCheck, ({ viewer }) => subscribeCheck(app, viewer.id));
  mountRoute(app, billingRoutes.cancelSubscription, ({ viewer }) => cancelSubscription(app, viewer.id));
  mountRoute(app, billingRoutes.paymentKey, async () => app.config.cloudpayments.publicId);
  mountRoute(app, billingRoutes.payPackage, ({ viewer, query }) => startPackagePayment(app, viewer, query.id));
  mountRoute(app, billingRoutes.paySubscription, ({ viewer, query }) => startSubscriptionPayment(app, viewer, query.id));
  mountRoute(app, billingRoutes.paymentStatus, async ({ viewer, query }) => {
    const invoice = await app.db.selectFrom('invoices').select(['id', 'kind', 'status']).where('id', '=', query.id).where('user_id', '=', viewer.id).executeTakeFirst();
    if (!invoice) throw new AppError('NOT_FOUND', 'Платёж не найден');
    return { payment_id: invoice.id, kind: invoice.kind, status: invoice.status };
  });
  mountRoute(app, billingRoutes.subscriptionStatus, ({ viewer }) => subscriptionStatus(app, viewer.id));
  mountRoute(app, billingRoutes.subscriptionHistory, ({ viewer, query }) => subscriptionHistory(app, viewer.id, query.page));
  mountRoute(app, billingRoutes.autoCharges, ({ viewer, query }) => autoChargeHistory(app, viewer.id, query.page));
  mountRoute(app, billingRoutes.conversion, async ({ viewer }) => ({ recorded: await recordConversion(app, viewer.id) }));
}
