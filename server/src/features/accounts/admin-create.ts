import { EmailSchema } from '@app/contracts';
import type { Db } from '../../db/database.ts';
import { randomToken } from '../../lib/crypto.ts';
import { hashPassword } from './passwords.ts';
import { insertUser, promoteToAdmin } from './users.queries.ts';

/**
 * Makes `email` an admin: promotes an existing user, or creates a confirmed admin account with
 * a random temporary password (printed once): at sign-in its owner must set their own first.
 */
export async function createAdmin(db: Db, rawEmail: string): Promise<{ email: string; created: boolean; password?: string }> {
  const parsed = EmailSchema.safeParse(rawEmail);
  if (!parsed.success) throw new Error(`Некорректный email: ${rawEmail}`);
  const email = parsed.data;
  if (await promoteToAdmin(db, email)) return { email, created: false };
  const password = randomToken('', 12);
  await insertUser(db, { email, password_hash: await hashPassword(password), password_temporary: true, role: 'admin', email_confirmed_at: new Date() });
  return { email, created: true, password };
}
