import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Role } from '@app/contracts';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: ColumnType<Role, Role | undefined, Role>;
  email_confirmed_at: Date | null;
  blocked_at: Date | null;
  /** The password was chosen for the user (`admin:create`): they must set their own before anything else. */
  password_temporary: ColumnType<boolean, boolean | undefined, boolean>;
  welcome_closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  telegram_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  bearer_hash: Buffer;
  cookie_hash: Buffer;
  created_at: CreatedAt;
  expires_at: Date;
  last_seen_at: Date;
  revoked_at: Date | null;
  ip: string | null;
  user_agent: string | null;
}
export type SessionRow = Selectable<SessionsTable>;

export interface EmailCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  expires_at: Date;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  used_at: Date | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: Buffer;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface RateLimitsTable {
  key: string;
  window_start: Date;
  hits: number;
}

export interface AccountTables {
  users: UsersTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
}
