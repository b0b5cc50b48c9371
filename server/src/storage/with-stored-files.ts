import type { BlobBody, PutOptions, Storage, StoredBlob } from './storage.ts';

/** Writes one blob inside a `withStoredFiles` scope. */
export type StoreBlob = (body: BlobBody, options: PutOptions) => Promise<StoredBlob>;

/** Where a blob that could not be deleted is reported (a pino logger fits). */
export interface CleanupLog {
  warn(details: object, message: string): void;
}

/**
 * Runs `fn` with a `store` function that writes blobs to `storage`, so that nothing stays
 * stored when the work they belong to is refused:
 * - if `fn` throws, every blob written through `store` is deleted (after writes still under
 *   way have finished) and the error is rethrown as it was;
 * - if `fn` succeeds, its blobs stay, except any that were still being written when it
 *   returned (nothing `fn` committed can name those);
 * - `store` refuses to write once `fn` has ended.
 *
 * The work that records the blobs — a database transaction inserting their rows — must run
 * and commit inside `fn`, as its last step: `withStoredFiles(storage, (store) =>
 * db.transaction().execute(async (tx) => { … await store(…) … insert rows … }))`. A commit
 * that fails then throws inside `fn`, and the blobs go with it.
 *
 * A blob that cannot be deleted is reported to `log` and left behind; the original error
 * still wins.
 */
export async function withStoredFiles<T>(storage: Storage, fn: (store: StoreBlob) => Promise<T>, options: { log?: CleanupLog } = {}): Promise<T> {
  const written: string[] = [];
  const pending = new Set<Promise<StoredBlob>>();
  let isOpen = true;

  const store: StoreBlob = (body, putOptions) => {
    if (!isOpen) return Promise.reject(new Error('withStoredFiles: store() was called after its scope ended'));
    const put = storage.put(body, putOptions).then((blob) => {
      written.push(blob.key);
      return blob;
    });
    pending.add(put);
    return put;
  };

  const finish = async (): Promise<{ inScope: string[]; late: string[] }> => {
    isOpen = false;
    const inScope = [...written];
    await Promise.allSettled(pending);
    return { inScope, late: written.slice(inScope.length) };
  };

  const remove = async (keys: string[]) => {
    await Promise.all(
      keys.map((key) =>
        storage.delete(key).catch((err: unknown) => {
          options.log?.warn({ err, key }, 'a stored file could not be deleted after its work failed; it is left behind');
        }),
      ),
    );
  };

  let result: T;
  try {
    result = await fn(store);
  } catch (err) {
    const { inScope, late } = await finish();
    await remove([...inScope, ...late]);
    throw err;
  }
  const { late } = await finish();
  await remove(late);
  return result;
}
