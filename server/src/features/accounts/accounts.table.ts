import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Role, SetupStep } from '@app/contracts';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: ColumnType<Role, Role | undefined, Role>;
  email_confirmed_at: Date | null;
  blocked_at: Date | null;
  /** The password was chosen for the user (`admin:create`), who must set their own (setup step `password`). */
  password_temporary: ColumnType<boolean, boolean | undefined, boolean>;
  /** What the account must do before anything else, in order (`SETUP_STEPS`). */
  setup_steps: ColumnType<SetupStep[], SetupStep[] | undefined, SetupStep[]>;
  welcome_closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  telegram_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Optional mail notices the user turned off (`OPTIONAL_NOTICE_KINDS`). */
  notices_off: ColumnType<string[], string[] | undefined, string[]>;
  /** Consent to the processing of personal data: when, to which version of the policy, from which address. */
  consent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  consent_version: ColumnType<number | null, number | null | undefined, number | null>;
  consent_ip: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account was deleted: its email is a placeholder, everything but payments and the ledger erased. */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The code of the user's referral link (`/register?ref=<code>`), made when first asked for. */
  referral_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who invited the user (registered through their link). */
  referred_by: ColumnType<number | null, number | null | undefined, number | null>;
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

export interface SecondFactorsTable {
  user_id: number;
  /** The TOTP secret, encrypted (`second-factor.ts`). */
  secret: string;
  /** Null while the enrolment waits for the app's first code. */
  enrolled_at: Date | null;
  /** The last time step whose code was accepted: a code is never taken twice. */
  last_step: ColumnType<string, number | undefined, number>;
  created_at: CreatedAt;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface AccountTables {
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  users: UsersTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
}
