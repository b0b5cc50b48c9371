import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileRoutes } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { mountRoute } from '../../lib/routes.ts';
import { RangeNotSatisfiableError, type ByteRange, type Storage } from '../../storage/storage.ts';
import { parseRange } from './byte-range.ts';
import { contentDisposition, downloadName } from './file-names.ts';
import { findReadableFile } from './files.service.ts';
import type { FileRow } from './files.table.ts';

/**
 * The CSP of a served file: an uploaded SVG or HTML opened directly can run no script, load
 * nothing and gets an opaque origin (`sandbox`), so it can never act as the site.
 */
export const FILE_CSP = "default-src 'none'; sandbox";

/** Files never change under an id; the creation time keeps a reused id (a restored database) from matching. */
const etagOf = (file: FileRow) => `"${String(file.id)}-${file.created_at.getTime().toString(36)}"`;

/** `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2). */
function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** The range to serve: none without a `Range`, or when `If-Range` names another version. */
function requestedRange(req: FastifyRequest, file: FileRow, etag: string): ByteRange | 'unsatisfiable' | undefined {
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag) return undefined;
  return parseRange(req.headers.range, file.size);
}

function refuseRange(reply: FastifyReply, size: number): never {
  void reply.header('content-range', `bytes */${String(size)}`);
  throw new AppError('RANGE_NOT_SATISFIABLE');
}

/**
 * Answers a stored file: its bytes with its own type, an ETag (304 on a match), a single Range,
 * inline or as a download named with its type's extension, under a CSP that runs nothing; HEAD
 * without opening the blob.
 */
export async function serveFile(storage: Storage, req: FastifyRequest, reply: FastifyReply, file: FileRow, opts: { download?: boolean; cacheControl?: string } = {}): Promise<FastifyReply> {
  const etag = etagOf(file);
  // Only on replies that carry (or stand for) the file: an error reply stays uncached.
  const fileHeaders = {
    'cache-control': opts.cacheControl ?? 'private',
    'x-content-type-options': 'nosniff',
    'content-security-policy': FILE_CSP,
    etag,
    'accept-ranges': 'bytes',
  };
  if (matchesNoneMatch(req.headers['if-none-match'], etag)) return reply.code(304).headers(fileHeaders).send();

  const range = requestedRange(req, file, etag);
  if (range === 'unsatisfiable') refuseRange(reply, file.size);
  const send = (served: ByteRange | undefined, size: number) => {
    const start = served?.start ?? 0;
    const end = served?.end ?? size - 1;
    void reply.headers({
      ...fileHeaders,
      'content-type': file.content_type,
      'content-disposition': contentDisposition(opts.download ? 'attachment' : 'inline', downloadName(file.original_name, file.content_type)),
      'content-length': String(end - start + 1),
    });
    if (served) void reply.code(206).header('content-range', `bytes ${String(start)}-${String(end)}/${String(size)}`);
  };

  if (req.method === 'HEAD') {
    send(range, file.size);
    // The row knows the size: the blob is not opened. An (empty) stream, because Fastify's
    // HEAD route sets Content-Length: 0 for a reply without a body.
    return reply.send(Readable.from([]));
  }
  let blob;
  try {
    blob = await storage.get(file.storage_key, range ? { range } : {});
  } catch (err) {
    if (err instanceof RangeNotSatisfiableError) refuseRange(reply, err.size);
    throw err;
  }
  if (!blob) {
    req.log.error({ fileId: file.id, storageKey: file.storage_key }, 'a file row has no blob in the storage');
    throw new AppError('NOT_FOUND');
  }
  send(range ? blob.range : undefined, blob.size);
  return reply.send(blob.body);
}

/** Files, read back only through the server by their owner or an admin. */
export default async function filesRoutes(app: FastifyInstance): Promise<void> {
  mountRoute(app, fileRoutes.file, async ({ req, reply, params, query, viewer }) => serveFile(app.ctx.storage, req, reply, await findReadableFile(app.ctx.db, viewer, params.id), { download: query.download }));
}
