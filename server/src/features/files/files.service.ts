import type { Db, Executor, Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import type { BlobBody, Storage } from '../../storage/storage.ts';
import { withStoredFiles, type CleanupLog, type StoreBlob } from '../../storage/with-stored-files.ts';
import { sanitizeFileName } from './file-names.ts';
import { deleteFileById, findFileById, insertFile } from './files.queries.ts';
import type { FilePurpose, FileRow } from './files.table.ts';

/** A file to keep: its bytes and what its uploader said about them. */
export interface NewFile {
  /** Null for the service's own files (product examples). */
  ownerId: number | null;
  purpose: FilePurpose;
  body: BlobBody;
  /** As the uploader sent it; it is normalised before it is stored. */
  contentType: string;
  /** As the uploader sent it; sanitised, for display only. */
  originalName?: string;
  /** Refuse (with `BlobTooLargeError`, nothing stored) a body larger than this. */
  maxBytes?: number;
}

/** Saves one file inside a `storeFiles` scope: its blob and its row. */
export type SaveFile = (file: NewFile) => Promise<FileRow>;

/**
 * Runs `fn` in a database transaction with a `save` function that stores a file's blob and
 * inserts its row in that transaction. When `fn` throws or the transaction does not commit,
 * the rows are rolled back and every blob saved in it is deleted: nothing stays stored for a
 * refused request. `fn` does the request's other writes with `tx`.
 */
export async function storeFiles<T>(db: Db, storage: Storage, fn: (tx: Tx, save: SaveFile) => Promise<T>, options: { log?: CleanupLog } = {}): Promise<T> {
  return withStoredFiles(storage, (store) => db.transaction().execute((tx) => fn(tx, (file) => saveFile(tx, store, file))), options);
}

/** Stores `file`'s blob through `store` and inserts its row with `db` (the transaction `store`'s scope commits). */
export async function saveFile(db: Executor, store: StoreBlob, file: NewFile): Promise<FileRow> {
  const blob = await store(file.body, { contentType: file.contentType, ...(file.maxBytes === undefined ? {} : { maxBytes: file.maxBytes }) });
  return insertFile(db, {
    owner_id: file.ownerId,
    storage_key: blob.key,
    content_type: blob.contentType,
    size: blob.size,
    original_name: sanitizeFileName(file.originalName),
    purpose: file.purpose,
  });
}

/**
 * The file `id` if `viewer` may read it: its owner or an admin. Anyone else gets NOT_FOUND,
 * exactly as for a file that does not exist, so ids reveal nothing.
 */
export async function findReadableFile(db: Executor, viewer: Viewer, id: number): Promise<FileRow> {
  const file = await findFileById(db, id);
  if (!file || (file.owner_id !== viewer.id && viewer.role !== 'admin')) throw new AppError('NOT_FOUND');
  return file;
}

/**
 * Deletes a file: its row, then its blob. A blob whose deletion fails is left behind (and the
 * error thrown), never a row without its blob. Answers whether there was such a file.
 */
export async function deleteFile(db: Db, storage: Storage, id: number): Promise<boolean> {
  const row = await deleteFileById(db, id);
  if (!row) return false;
  await storage.delete(row.storage_key);
  return true;
}
