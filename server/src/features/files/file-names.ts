/** Longest name kept, in characters (the `files.original_name` check). */
export const FILE_NAME_MAX_LENGTH = 255;

/** The name of a file whose uploader gave none, or only characters that are removed. */
export const DEFAULT_FILE_NAME = 'file';

// Controls, format characters (bidi overrides that show "exe.txt" for "txt.exe", zero-width
// characters), lone surrogates and private-use characters.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/gu;
// Characters that no file system on the downloading side accepts in a name.
const RESERVED = /[<>:"|?*]/g;

/**
 * An uploader's file name made safe to show and to offer as a download name: the last path
 * segment only, no control or direction-changing characters, no leading dots, at most
 * `FILE_NAME_MAX_LENGTH` characters (the extension kept). It is never used as a path: blobs
 * are stored under random keys.
 */
export function sanitizeFileName(name: string | undefined): string {
  const visible = (name ?? '').replace(/[\t\n\v\f\r]/g, ' ').replace(INVISIBLE, '');
  const base = visible.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (!cleaned) return DEFAULT_FILE_NAME;
  // Code points, as PostgreSQL counts `length(original_name)`.
  const chars = Array.from(cleaned);
  if (chars.length <= FILE_NAME_MAX_LENGTH) return cleaned;
  const ext = /\.[^.\s]{1,16}$/.exec(cleaned)?.[0] ?? '';
  return chars.slice(0, FILE_NAME_MAX_LENGTH - ext.length).join('').trimEnd() + ext;
}

/** Name extensions of the types the service keeps (users' pictures, results, examples), the usual one first. */
const EXTENSIONS: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'image/avif': ['avif'],
  'image/svg+xml': ['svg'],
  'video/mp4': ['mp4', 'm4v'],
  'video/webm': ['webm'],
  'video/quicktime': ['mov'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt'],
};

const extensionsOf = (contentType: string): readonly string[] => EXTENSIONS[contentType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? [];

/** The usual name extension of a content type (`image/jpeg` → `jpg`), without the dot; null for a type it does not know. */
export function extensionFor(contentType: string): string | null {
  return extensionsOf(contentType)[0] ?? null;
}

/**
 * The name a file is served under: its kept name, with its type's extension added when the name
 * does not already end in one of that type's (`result-3-1` of a PNG → `result-3-1.png`,
 * `photo.jpeg` of a JPEG stays), so a download opens with the right program whatever name was
 * stored — names kept before results got extensions too. Unknown types keep the name.
 */
export function downloadName(name: string, contentType: string): string {
  const known = extensionsOf(contentType);
  const current = /\.([^.\s]{1,16})$/.exec(name)?.[1]?.toLowerCase();
  if (!known[0] || (current !== undefined && known.includes(current))) return name;
  return sanitizeFileName(`${name}.${known[0]}`);
}

/** RFC 5987 `ext-value` characters: `encodeURIComponent` leaves `'()*` as they are, which that grammar does not allow. */
const encodeExtValue = (value: string) => encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition` for a file: `inline` or `attachment`, with an ASCII `filename` for old
 * clients and the exact name as RFC 5987 `filename*=UTF-8''…` (which browsers prefer).
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
