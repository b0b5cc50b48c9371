import type { FastifyInstance } from 'fastify';
import { billingRoutes, z } from '@app/contracts';
import { renderErrorPage, widget } from '@app/host-pages';
import { AppError } from '../../../lib/app-error.ts';
import { pageContext } from '../../pages/page-context.ts';
import { mountRoute } from '../../../lib/routes.ts';
import { rubles } from '../../billing/money.ts';
import { runSandboxRenewals, sandboxCharge } from './sandbox.engine.ts';
import { findUserInvoice } from '../../billing/invoices.queries.ts';
import { SANDBOX_WIDGET_SCRIPT } from './sandbox-script.ts';
import { assertSandboxOn } from '../../settings/settings.store.ts';

const CheckoutQuerySchema = z.object({ payment_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The payment sandbox: its widget script, checkout page, charge call and renewal trigger. */
export default async function sandboxRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const enabled = ctx.config.cloudpayments.sandbox;
  const assertEnabled = () => {
    if (!enabled) throw new AppError('NOT_FOUND');
  };

  app.get('/sandbox/cloudpayments.js', { schema: { hide: true } }, (_req, reply) => {
    assertEnabled();
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(SANDBOX_WIDGET_SCRIPT);
  });

  app.get('/sandbox/checkout', { schema: { hide: true } }, async (req, reply) => {
    assertEnabled();
    const query = CheckoutQuerySchema.safeParse(req.query);
    const viewer = req.viewer;
    const invoice = query.success && viewer ? await findUserInvoice(ctx.db, viewer.id, query.data.payment_id) : undefined;
    if (viewer && !invoice) return renderErrorPage(reply, 404, pageContext(ctx, req));
    return app.sendPage(req, reply, {
      access: 'user',
      layout: 'embed',
      render: () => ({
        title: 'Тестовая оплата',
        widgets: invoice
          ? [
              widget('sandbox-checkout', {
                payment_id: invoice.id,
                amount: rubles(invoice.amount_kopecks),
                description: invoice.description,
                email: viewer?.email ?? '',
                recurrent: invoice.kind === 'subscription',
              }),
            ]
          : [],
      }),
    });
  });

  mountRoute(app, billingRoutes.sandboxCharge, async ({ req, viewer, body }) => {
    assertEnabled();
    assertSandboxOn(ctx, 'payments');
    return sandboxCharge(ctx, viewer.id, body, req.ip);
  });

  mountRoute(app, billingRoutes.sandboxRenew, async ({ body }) => {
    assertEnabled();
    assertSandboxOn(ctx, 'payments');
    return runSandboxRenewals(ctx, body.subscription_id);
  });
}
