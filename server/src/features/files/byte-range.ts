import type { ByteRange } from '../../storage/storage.ts';

/**
 * Reads an HTTP `Range` header (RFC 9110 §14.1.2) against a file of `size` bytes: one range of
 * bytes (`a-b`, `a-`, or the suffix `-n`), cut to the file. `undefined` means "send the whole
 * file": no header, another unit, several ranges, malformed syntax, or an empty file — a
 * server may ignore a Range it does not serve. `'unsatisfiable'` (416) is a range that starts
 * past the end or ends before it starts.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined || size === 0) return undefined;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const first = match[1] === '' ? undefined : Number(match[1]);
  const last = match[2] === '' ? undefined : Number(match[2]);
  if ((first !== undefined && !Number.isSafeInteger(first)) || (last !== undefined && !Number.isSafeInteger(last))) return undefined;
  if (first === undefined) {
    if (last === 0 || last === undefined) return 'unsatisfiable';
    return { start: Math.max(size - last, 0), end: size - 1 };
  }
  if (first >= size || (last !== undefined && last < first)) return 'unsatisfiable';
  return { start: first, end: Math.min(last ?? size - 1, size - 1) };
}
