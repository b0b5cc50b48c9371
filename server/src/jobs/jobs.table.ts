import type { ColumnType, Generated, Selectable } from 'kysely';

/** A job that failed every attempt: kept for admins (pg-boss archives and deletes its own rows). */
export interface JobFailuresTable {
  id: Generated<number>;
  job_id: string;
  queue: string;
  payload: ColumnType<unknown, string, string>;
  error: string;
  attempts: number;
  failed_at: ColumnType<Date, Date | undefined, never>;
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
export type JobFailureRow = Selectable<JobFailuresTable>;

export interface JobTables {
  job_failures: JobFailuresTable;
}
