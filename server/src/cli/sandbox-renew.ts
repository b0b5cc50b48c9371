import { bootstrap } from '../bootstrap.ts';
import { createContext, startContext, stopContext } from '../composition.ts';
import { currentSubscriptionByEmail } from '../features/accounts/users.queries.ts';
import { runSandboxRenewals } from '../features/payments/sandbox/sandbox.engine.ts';

/**
 * Payment sandbox: charges a renewal now, as CloudPayments would at the next period —
 * `npm run sandbox:renew -- <email>` for that user's current plan, or without an email for
 * every sandbox subscription that is due.
 */
const email = process.argv[2]?.trim().toLowerCase();
const runtime = await bootstrap({ seed: false });
const ctx = createContext(runtime);
let failed = false;
try {
  await startContext(ctx, { work: false });
  if (!ctx.config.cloudpayments.sandbox) throw new Error('CloudPayments keys are configured: renewals are charged by CloudPayments, not the sandbox.');
  let subscriptionId: number | undefined;
  if (email) {
    const sub = await currentSubscriptionByEmail(ctx.db, email);
    if (!sub) throw new Error(`У пользователя ${email} нет текущей подписки.`);
    subscriptionId = sub.id;
  }
  const result = await runSandboxRenewals(ctx, subscriptionId);
  console.log(`Списано: ${String(result.charged)}, не удалось списать: ${String(result.failed)}.`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  failed = true;
} finally {
  await stopContext(ctx);
  await runtime.close();
}
// Exit explicitly with the outcome: nothing left running may keep the process alive or decide its code.
process.exit(failed ? 1 : 0);
