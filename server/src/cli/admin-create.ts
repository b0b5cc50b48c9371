import { bootstrap } from '../bootstrap.ts';
import { createAdmin, describeAdminCreate } from '../features/accounts/admin-create.ts';

const email = process.argv[2];
if (!email) {
  console.error('Usage: npm run admin:create -- <email>');
  process.exit(2);
}
const runtime = await bootstrap({ seed: false });
let failed = false;
try {
  console.log(describeAdminCreate(await createAdmin(runtime.db, email)));
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  failed = true;
} finally {
  await runtime.close();
}
// Exit explicitly with the outcome: nothing left running may keep the process alive or decide its code.
process.exit(failed ? 1 : 0);
