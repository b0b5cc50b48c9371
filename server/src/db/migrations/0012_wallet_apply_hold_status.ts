import type { Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * `wallet_apply` also says where an existing hold stands (`held`, `settled`, `released`), so a
 * retried operation whose hold was already closed does not run its work again for free.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'wallet_apply', 2);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'wallet_apply', 1);
}
