import sharp from 'sharp';
import type { FileKind } from '@app/contracts';

/**
 * The most pixels (width × height) an uploaded picture may have: 40 megapixels (8000 × 5000,
 * more than any phone camera takes). Checked from the header before decoding, and by libvips
 * again while it decodes (`limitInputPixels`).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** The kinds that are pictures, and the format libvips must read them as. */
const IMAGE_FORMATS: Partial<Record<FileKind, string>> = { png: 'png', jpeg: 'jpeg', webp: 'webp', gif: 'gif' };

/** Side of the thumbnail the decode draws: with a sink this small, libvips streams the picture through in strips. */
const PROBE_SIDE = 64;

/** Whether a file of `kind` is a picture that {@link checkImage} decodes. */
export const isImageKind = (kind: FileKind): boolean => IMAGE_FORMATS[kind] !== undefined;

/** What {@link checkImage} found. */
export type ImageCheck = { ok: true; width: number; height: number } | { ok: false; reason: 'unreadable' } | { ok: false; reason: 'too_large'; width: number; height: number };

/**
 * Decodes a picture whole, to tell a real one from a header that only claims to be one: the size
 * from its header must be within {@link MAX_IMAGE_PIXELS}, then every row (a JPEG's every block, at
 * the scale its shrink-on-load picks) is read into a 64-pixel thumbnail that is thrown away.
 * Sequential access and the tiny output keep memory to a few strips of the picture (measured:
 * 14 MB for a 40-megapixel PNG, 5 MB for a JPEG) whatever its size; a truncated or corrupt file
 * fails (`failOn: 'error'`: errors and truncation, not the warnings many cameras' files raise).
 * Only an animation's first frame is decoded.
 */
export async function checkImage(data: Buffer, kind: FileKind): Promise<ImageCheck> {
  let width: number;
  let height: number;
  try {
    // The header alone (no limit here: the limit is ours to report, with the size).
    const meta = await sharp(data, { limitInputPixels: false }).metadata();
    if (meta.format !== IMAGE_FORMATS[kind] || !meta.width || !meta.height) return { ok: false, reason: 'unreadable' };
    width = meta.width;
    height = meta.height;
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  if (width * height > MAX_IMAGE_PIXELS) return { ok: false, reason: 'too_large', width, height };
  try {
    // `linear`, not `nearest`: nearest-neighbour skips rows, so a cut-off tail would go unread.
    await sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true })
      .resize(PROBE_SIDE, PROBE_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: 'linear' })
      .raw()
      .toBuffer();
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  return { ok: true, width, height };
}
