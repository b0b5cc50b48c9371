import type { FastifyInstance } from 'fastify';
import { adminPromoRoutes as a, promoRoutes as r } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { redeemPromo } from './promo.service.ts';
import { checkDiscount } from './discount.service.ts';
import { referralSummary } from './referral.service.ts';
import { adminPromo, adminPromos, changePromo, createPromo } from './admin-promo.service.ts';

/** Promo codes and referral links: the users' calls and the admin's section of «Тарифы». */
export default async function promoRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, r.redeem, ({ viewer, body, req }) => redeemPromo(ctx, viewer, body.code, req.ip));
  mountRoute(app, r.checkDiscount, ({ viewer, query, req }) => checkDiscount(ctx, viewer, query.code, query.tariff_id, req.ip));
  mountRoute(app, r.referral, ({ viewer }) => referralSummary(ctx, viewer.id));
  mountRoute(app, a.promoCodes, ({ query }) => adminPromos(ctx, query));
  mountRoute(app, a.promoCode, ({ params }) => adminPromo(ctx, params.id));
  mountRoute(app, a.createPromoCode, ({ viewer, body }) => createPromo(ctx, viewer, body));
  mountRoute(app, a.updatePromoCode, ({ viewer, params, body }) => changePromo(ctx, viewer, params.id, body));
}
