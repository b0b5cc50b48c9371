import { bootstrap } from '../bootstrap.ts';
import { describeSecondFactorReset, resetSecondFactor } from '../features/accounts/second-factor.service.ts';

const email = process.argv[2];
if (!email) {
  console.error('Usage: npm run admin:reset-2fa -- <email>');
  process.exit(2);
}
const runtime = await bootstrap({ seed: false });
let failed = false;
try {
  console.log(describeSecondFactorReset(await resetSecondFactor(runtime.db, email)));
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  failed = true;
} finally {
  await runtime.close();
}
// Exit explicitly with the outcome: nothing left running may keep the process alive or decide its code.
process.exit(failed ? 1 : 0);
