import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * What a file is for; stored as text (the database checks only its shape), so a feature adds
 * its purpose here without a migration.
 */
export type FilePurpose = 'chat_attachment' | 'generation_input' | 'generation_result' | 'product_example';

/** A file's row; its bytes are in the storage under `storage_key`. Rows are never updated. */
export interface FilesTable {
  id: Generated<number>;
  /** Null for the service's own files (product examples). */
  owner_id: number | null;
  /** Made by the storage (random); never shown to users. */
  storage_key: string;
  content_type: string;
  size: number;
  /** The uploader's name for the file, sanitised; for display and downloads only. */
  original_name: string;
  purpose: FilePurpose;
  created_at: ColumnType<Date, Date | undefined, never>;
}
export type FileRow = Selectable<FilesTable>;
export type NewFileRow = Insertable<FilesTable>;

export interface FileTables {
  files: FilesTable;
}
