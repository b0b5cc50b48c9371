import { buildApp } from '../app.ts';
import { bootstrap } from '../bootstrap.ts';
import { runSandboxRenewals } from '../features/payments/sandbox/sandbox.engine.ts';

/**
 * Payment sandbox: charges a renewal now, as CloudPayments would at the next period —
 * `npm run sandbox:renew -- <email>` for that user's current plan, or without an email for
 * every sandbox subscription that is due.
 */
const email = process.argv[2]?.trim().toLowerCase();
const runtime = await bootstrap({ seed: false });
const app = await buildApp({ ...runtime, config: { ...runtime.config, runWorkers: false }, loggerInstance: runtime.log });
let failed = false;
try {
  await app.ready();
  if (!app.config.cloudpayments.sandbox) throw new Error('CloudPayments keys are configured: renewals are charged by CloudPayments, not the sandbox.');
  let subscriptionId: number | undefined;
  if (email) {
    const sub = await app.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.user_id')
      .select('subscriptions.id')
      .where('users.email', '=', email)
      .where('subscriptions.status', 'in', ['active', 'past_due', 'cancelled'])
      .executeTakeFirst();
    if (!sub) throw new Error(`У пользователя ${email} нет текущей подписки.`);
    subscriptionId = sub.id;
  }
  const result = await runSandboxRenewals(app, subscriptionId);
  console.log(`Списано: ${String(result.charged)}, не удалось списать: ${String(result.failed)}.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  failed = true;
} finally {
  await app.close();
  await runtime.close();
}
// Exit explicitly with the outcome: nothing left running may keep the process alive or decide its code.
process.exit(failed ? 1 : 0);
