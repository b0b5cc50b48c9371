import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import { safeParse, type $ZodType } from 'zod/v4/core';
import { FILE_KINDS, pluralRu, type ErrorCode, type FileKind, type MultipartSpec } from '@app/contracts';
import { AppError } from './app-error.ts';
import { zodFieldErrors } from './field-errors.ts';
import type { ImageBudget } from './image-budget.ts';
import { MAX_IMAGE_PIXELS, cleanImage, isImageKind, type CleanedImage } from './images.ts';
import { sanitizeFileName } from '../features/files/file-names.ts';

/**
 * A file of an accepted multipart request, checked by content and held in memory (limits keep it
 * small); a picture's `data` is its copy without metadata, `size` that copy's.
 */
export interface UploadedFile {
  field: string;
  /** The client's file name, for display only (never a storage key). */
  name: string;
  kind: FileKind;
  mime: string;
  size: number;
  data: Buffer;
}

/** Text fields above this are refused (no contract field is longer). */
const MAX_FIELD_BYTES = 256 * 1024;
const MAX_FIELDS = 50;

/** `40 КБ`, `10 МБ`, `1,5 МБ`. */
function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${String(Math.round(bytes / 1024))} КБ`;
  return `${String(Math.round((bytes / 1024 / 1024) * 10) / 10).replace('.', ',')} МБ`;
}
const kindsLabel = (kinds: readonly FileKind[]) => kinds.map((k) => FILE_KINDS[k].label).join(', ').replace(/, ([^,]+)$/, ' или $1');

/** Russian plural of «файл» for n. */
function files(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return 'файла';
  return 'файлов';
}

async function readLimited(stream: AsyncIterable<Buffer> & { truncated?: boolean }, maxBytes: number, field: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > maxBytes) throw new AppError('FILE_TOO_LARGE', { [field]: [`Файл больше ${formatSize(maxBytes)}`] });
    chunks.push(chunk);
  }
  if (stream.truncated) throw new AppError('FILE_TOO_LARGE', { [field]: [`Файл больше ${formatSize(maxBytes)}`] });
  return Buffer.concat(chunks, size);
}

const BAD_BOUNDARY = 'Некорректные данные формы: в заголовке Content-Type нет границы частей (boundary)';

/** Errors of the multipart parser (busboy through @fastify/multipart) as Russian replies; anything else stays what it is. */
function parserError(err: unknown, spec: MultipartSpec): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return new AppError('TOO_MANY_FILES', `Можно прикрепить не больше ${String(spec.maxFiles)} ${files(spec.maxFiles)}`);
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('FILE_TOO_LARGE');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return new AppError('BAD_REQUEST');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Ожидались данные формы (multipart/form-data)');
    case 'ECONNRESET':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new AppError('UPLOAD_INCOMPLETE');
  }
  // A content type busboy cannot split into parts: no boundary, an empty or an overlong one.
  if (err instanceof Error && /boundary not found|needle cannot|unsupported content-type|missing content-type/i.test(err.message)) return new AppError('BAD_REQUEST', BAD_BOUNDARY);
  // A body that ends before its closing boundary: the client went away or the upload broke.
  if (err instanceof Error && /unexpected end of (form|multipart)|part terminated early|aborted/i.test(err.message)) return new AppError('UPLOAD_INCOMPLETE');
  return err;
}

/** How long a picture refused for want of room is told to wait. */
const BUSY_RETRY_SECONDS = 30;

/** The refusal of a picture {@link cleanImage} would not keep, beside its field. */
function imageRefusal(file: UploadedFile, result: Exclude<CleanedImage, { ok: true }>): AppError {
  const refuse = (code: ErrorCode, message: string, options?: { retryAfterSeconds: number }) => new AppError(code, { [file.field]: [message] }, options);
  switch (result.reason) {
    case 'too_large': {
      const limit = `не больше ${String(MAX_IMAGE_PIXELS / 1_000_000)} мегапикселей`;
      const size = `${String(result.width)}×${String(result.height)}`;
      if (result.frames === 1) return refuse('FILE_TOO_LARGE', `Изображение «${file.name}» (${size}) слишком большое: ${limit}`);
      const frames = `${String(result.frames)} ${pluralRu(result.frames, ['кадр', 'кадра', 'кадров'])}`;
      return refuse('FILE_TOO_LARGE', `Изображение «${file.name}» (${size}, ${frames}) слишком большое: ${limit} во всех кадрах вместе`);
    }
    case 'too_costly': {
      const megapixels = Math.max(1, Math.floor(result.maxPixels / 1_000_000));
      return refuse('FILE_TOO_LARGE', `Изображение «${file.name}» (${String(result.width)}×${String(result.height)}) в таком виде слишком сложно проверить: уменьшите его до ${String(megapixels)} ${pluralRu(megapixels, ['мегапикселя', 'мегапикселей', 'мегапикселей'])}`);
    }
    case 'busy':
      return refuse('IMAGES_BUSY', `Сервер сейчас проверяет много изображений: отправьте «${file.name}» ещё раз через минуту`, { retryAfterSeconds: BUSY_RETRY_SECONDS });
    default:
      return refuse('VALIDATION', `Не удалось прочитать изображение «${file.name}»: файл повреждён или загружен не полностью`);
  }
}

/**
 * Checks the pictures among `files`, one at a time, and puts in each its copy without metadata
 * (`images.ts`); refuses the request at the first that is not a whole picture this process can
 * check.
 */
async function cleanImages(files: UploadedFile[], budget: ImageBudget): Promise<void> {
  for (const file of files) {
    if (!isImageKind(file.kind)) continue;
    const result = await cleanImage(file.data, file.kind, budget);
    if (!result.ok) throw imageRefusal(file, result);
    file.data = result.data;
    file.size = result.data.length;
  }
}

/** Refuses a request without a file its route requires. */
function checkRequired(spec: MultipartSpec, uploaded: Record<string, UploadedFile[]>): void {
  for (const [name, field] of Object.entries(spec.files)) {
    if (field.required && !uploaded[name]?.length) throw new AppError('VALIDATION', { [name]: ['Прикрепите файл'] });
  }
}

/** The text fields, checked by the route's schema with the same per-field Russian errors as JSON bodies. */
function checkFields(bodySchema: $ZodType | undefined, fields: unknown): unknown {
  if (!bodySchema) return fields;
  const parsed = safeParse(bodySchema, fields);
  if (!parsed.success) throw new AppError('VALIDATION', zodFieldErrors(parsed.error.issues));
  return parsed.data;
}

/**
 * The fields of a route that takes multipart, or JSON when it has no files (`MultipartSpec.json`):
 * a JSON body (parsed by Fastify) is checked as the multipart fields are, with no files.
 */
export async function readFields(req: FastifyRequest, spec: MultipartSpec, bodySchema: $ZodType | undefined): Promise<{ fields: unknown; files: Record<string, UploadedFile[]> }> {
  if (spec.json && /^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    checkRequired(spec, {});
    return { fields: checkFields(bodySchema, req.body), files: {} };
  }
  return readMultipart(req, spec, bodySchema);
}

/**
 * Reads a multipart request as its route describes it: files by declared field only, counted,
 * size-limited per field and in total, their kind decided by content, pictures decoded whole and
 * written anew without their metadata (`images.ts`); text fields validated by `bodySchema` with
 * the same per-field Russian errors as JSON bodies. Nothing is stored here: a refused request
 * leaves nothing behind.
 */
export async function readMultipart(req: FastifyRequest, spec: MultipartSpec, bodySchema: $ZodType | undefined): Promise<{ fields: unknown; files: Record<string, UploadedFile[]> }> {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Ожидались данные формы (multipart/form-data)');
  const largest = Math.max(1, ...Object.values(spec.files).map((f) => f.maxBytes));
  const fields: Record<string, unknown> = {};
  const uploaded: Record<string, UploadedFile[]> = {};
  let count = 0;
  let total = 0;
  try {
    const parts = req.parts({ limits: { files: spec.maxFiles, fileSize: largest, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + spec.maxFiles } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldnameTruncated || part.valueTruncated) throw new AppError('PAYLOAD_TOO_LARGE', { [part.fieldname]: ['Слишком длинное значение'] });
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        const previous = fields[part.fieldname];
        fields[part.fieldname] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
        continue;
      }
      const field = spec.files[part.fieldname];
      if (!field) {
        part.file.resume();
        throw new AppError('VALIDATION', { [part.fieldname]: ['Этот файл здесь не нужен'] });
      }
      count += 1;
      const data = await readLimited(part.file, field.maxBytes, part.fieldname);
      total += data.length;
      if (total > spec.maxTotalBytes) throw new AppError('FILE_TOO_LARGE', `Файлы вместе больше ${formatSize(spec.maxTotalBytes)}`);
      const detected = data.length ? await fileTypeFromBuffer(data) : undefined;
      const kind = (Object.keys(FILE_KINDS) as FileKind[]).find((k) => FILE_KINDS[k].mime === detected?.mime);
      if (!kind || !field.accept.includes(kind)) {
        throw new AppError('FILE_TYPE_NOT_ALLOWED', { [part.fieldname]: [`Файл «${sanitizeFileName(part.filename)}» должен быть в формате ${kindsLabel(field.accept)}`] });
      }
      (uploaded[part.fieldname] ??= []).push({ field: part.fieldname, name: sanitizeFileName(part.filename), kind, mime: FILE_KINDS[kind].mime, size: data.length, data });
    }
  } catch (err) {
    throw parserError(err, spec);
  }
  if (count > spec.maxFiles) throw new AppError('TOO_MANY_FILES', `Можно прикрепить не больше ${String(spec.maxFiles)} ${files(spec.maxFiles)}`);
  checkRequired(spec, uploaded);
  const checked = checkFields(bodySchema, fields);
  // The costliest check last: only a request that passed every other one decodes its pictures.
  await cleanImages(Object.values(uploaded).flat(), req.server.imageBudget);
  return { fields: checked, files: uploaded };
}
