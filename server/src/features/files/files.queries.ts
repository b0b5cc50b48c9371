import type { Executor } from '../../db/database.ts';
import type { FileRow, NewFileRow } from './files.table.ts';

/** Inserts a file's row (its blob is already stored); answers the row. */
export async function insertFile(db: Executor, row: NewFileRow): Promise<FileRow> {
  return db.insertInto('files').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A file by id, whoever owns it. */
export async function findFileById(db: Executor, id: number): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a file's row; answers it (with the key of the blob to delete) or `undefined`. */
export async function deleteFileById(db: Executor, id: number): Promise<FileRow | undefined> {
  return db.deleteFrom('files').where('id', '=', id).returningAll().executeTakeFirst();
}
