import { EmailSchema } from '@app/contracts';
import type { Db } from '../../db/database.ts';
import { randomToken } from '../../lib/crypto.ts';
import { hashPassword } from './passwords.ts';
import { revokeUserSessions } from './sessions.queries.ts';
import { secondFactorForRole } from './second-factor.service.ts';
import { insertUser, lockUserByEmail, promoteToAdmin } from './users.queries.ts';

export type AdminCreateResult =
  | { outcome: 'created'; email: string; password: string }
  | { outcome: 'promoted'; email: string; sessionsEnded: number }
  | { outcome: 'already'; email: string };

/**
 * `npm run admin:create -- <email>`. An unknown email becomes a confirmed admin with a random
 * temporary password (printed once). An existing account becomes staff only when its owner has
 * proved the address (a squatter who registered it first and never confirmed is refused) and it is
 * not blocked; then every session of it ends and it must set a new password (setup step
 * `password`) before any call, the admin panel's first of all. Either way, staff without a second
 * factor then enrol one (setup step `second_factor`). Refusals throw, in Russian.
 */
export async function createAdmin(db: Db, rawEmail: string): Promise<AdminCreateResult> {
  const parsed = EmailSchema.safeParse(rawEmail);
  if (!parsed.success) throw new Error(`Некорректный email: ${rawEmail}`);
  const email = parsed.data;
  return db.transaction().execute(async (tx): Promise<AdminCreateResult> => {
    const user = await lockUserByEmail(tx, email);
    if (!user) {
      const password = randomToken('', 12);
      const created = await insertUser(tx, { email, password_hash: await hashPassword(password), password_temporary: true, setup_steps: ['password', 'second_factor'], role: 'admin', email_confirmed_at: new Date() });
      if (!created) throw new Error(`Пользователь ${email} только что зарегистрировался: запустите команду снова`);
      return { outcome: 'created', email, password };
    }
    if (user.role === 'admin') return { outcome: 'already', email };
    if (!user.email_confirmed_at) {
      throw new Error(
        `Пользователь ${email} не подтвердил почту: назначить его администратором нельзя — аккаунт мог зарегистрировать кто угодно. ` +
          'Владелец адреса может подтвердить его, восстановив пароль по ссылке из письма (/password/reset: прежние сеансы аккаунта при этом завершатся); затем запустите команду снова.',
      );
    }
    if (user.blocked_at) throw new Error(`Пользователь ${email} заблокирован: сначала разблокируйте его в админке, затем запустите команду снова`);
    await promoteToAdmin(tx, user.id);
    await secondFactorForRole(tx, user.id, 'admin');
    return { outcome: 'promoted', email, sessionsEnded: await revokeUserSessions(tx, user.id) };
  });
}

/** What the CLI prints for a result. */
export function describeAdminCreate(result: AdminCreateResult): string {
  switch (result.outcome) {
    case 'created':
      return (
        `Создан администратор ${result.email}. Временный пароль: ${result.password}\n` +
        'При первом входе он сменит временный пароль, затем подключит второй фактор — код из приложения-аутентификатора (QR-код покажет админка) и резервные коды; до этого админка не откроется.'
      );
    case 'promoted':
      return (
        `Пользователь ${result.email} назначен администратором. Все его сеансы завершены (${String(result.sessionsEnded)}); ` +
        'войдя снова, он сначала задаст новый пароль, затем подключит второй фактор (код из приложения-аутентификатора), если его ещё нет, — до этого ни админка, ни остальное не откроются.'
      );
    case 'already':
      return `Пользователь ${result.email} уже администратор: ничего не изменено.`;
  }
}
