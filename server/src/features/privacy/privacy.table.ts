import type { ColumnType, Generated } from 'kysely';
import type { LegalKind, NoticeKind } from '@app/contracts';

/** One notice mailed about a plan: at most one per (subscription, period, kind). */
export interface MailNoticesTable {
  id: Generated<number>;
  user_id: number;
  subscription_id: number;
  kind: NoticeKind;
  /** The period the notice is about: its end as an ISO string, or the failed charge (`charge:<id>`). */
  period_key: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A version of the personal-data policy or the offer; the highest version is in force. */
export interface LegalDocumentsTable {
  id: Generated<number>;
  kind: LegalKind;
  version: number;
  body: string;
  author_id: number | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface PrivacyTables {
  mail_notices: MailNoticesTable;
  legal_documents: LegalDocumentsTable;
}
