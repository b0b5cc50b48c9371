import type { ColumnType, Generated } from 'kysely';

export interface AuditLogTable {
  id: Generated<number>;
  /** Null once the staff member's account is gone. */
  actor_id: number | null;
  /** What was done: `user.update`, `user.balance`, `tariff.update`… */
  action: string;
  /** The kind of record (`user`, `tariff`…) and its id. */
  entity: string;
  entity_id: string;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
