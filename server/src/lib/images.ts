import sharp, { type Metadata } from 'sharp';
import type { FileKind } from '@app/contracts';
import { ImageBudgetBusy, type ImageBudget } from './image-budget.ts';
import { isLosslessWebp, stripWebpMetadata } from './webp-chunks.ts';

/**
 * The most pixels (width × height, over all frames of an animation) an uploaded picture may have:
 * 40 megapixels (8000 × 5000, more than any phone camera takes). Checked from the header before
 * decoding, and by libvips again while it decodes (`limitInputPixels`).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

// libvips' operation cache keeps the last 100 operations with their images, and a decoder's own
// buffers (a progressive JPEG's coefficients: 120 MB at 40 megapixels) are not counted against its
// 50 MB: pictures checked once and never again held a gigabyte. Nothing here is decoded twice.
sharp.cache(false);

/** The kinds that are pictures, and the format libvips must read them as. */
const IMAGE_FORMATS: Partial<Record<FileKind, string>> = { png: 'png', jpeg: 'jpeg', webp: 'webp', gif: 'gif' };

/** Whether a file of `kind` is a picture that {@link cleanImage} decodes and writes anew. */
export const isImageKind = (kind: FileKind): boolean => IMAGE_FORMATS[kind] !== undefined;

/** What {@link cleanImage} made of a picture, or why it refused it. */
export type CleanedImage =
  | { ok: true; data: Buffer }
  | { ok: false; reason: 'unreadable' }
  | { ok: false; reason: 'too_large'; width: number; height: number; frames: number }
  /** Decoding it would take more than the whole budget; a picture of `maxPixels` would fit. */
  | { ok: false; reason: 'too_costly'; width: number; height: number; maxPixels: number }
  /** The budget had no room for it in time. */
  | { ok: false; reason: 'busy' };

const MB = 1024 * 1024;

/**
 * The memory checking a picture and writing it anew takes at most, in bytes, from its header:
 * what libvips streams through costs a few strips, but some encodings must be held whole — a
 * progressive JPEG's coefficients (2 bytes a sample, chroma a quarter at 4:2:0), an interlaced
 * PNG's pixels, a lossless or transparent WebP's frame (a lossy one is scaled as it is decoded),
 * a GIF's frames and palette search — and so must the pixels of a picture turned upside down or
 * on its side. Measured on this machine for each kind, and each factor set above every
 * measurement (server/test/platform/image-cost.test.ts holds them to it).
 */
export function imageCost(meta: Metadata, data: Buffer): number {
  const frames = frameCount(meta);
  const pixels = meta.width * frameHeight(meta);
  const sampleBytes = meta.depth === 'ushort' ? 2 : 1;
  const bands = meta.channels;
  let held = 0;
  if (meta.format === 'jpeg' && meta.isProgressive) {
    const full = meta.chromaSubsampling?.startsWith('4:4:4') ?? true;
    held += pixels * 2 * (bands === 1 || full ? bands : bands - 1.5);
  }
  if (meta.format === 'png' && meta.isProgressive) held += pixels * bands * sampleBytes;
  if (meta.format === 'webp' && (meta.hasAlpha || isLosslessWebp(data))) held += pixels * 5;
  if (meta.format === 'gif') held += pixels * (frames > 1 ? 48 : 16);
  if (meta.format !== 'webp' && frames === 1 && needsWholePicture(meta.orientation)) held += pixels * Math.max(bands, 3) * sampleBytes;
  return 32 * MB + meta.width * 1024 + held * 1.1;
}

const frameCount = (meta: Metadata) => Math.max(1, meta.pages ?? 1);
const frameHeight = (meta: Metadata) => (frameCount(meta) > 1 && meta.pageHeight ? meta.pageHeight : meta.height);

/** EXIF orientations libvips turns by reading the picture whole (a mirror left to right streams). */
const needsWholePicture = (orientation: number | undefined) => orientation !== undefined && orientation > 2 && orientation <= 8;

/** Side of the thumbnail a WebP is decoded into: with a sink this small, libvips streams the picture through in strips. */
const PROBE_SIDE = 64;

/**
 * A WebP rewritten without its metadata (`webp-chunks.ts`), then decoded into a thumbnail that is
 * thrown away. Encoding a WebP again would cost far more than decoding it (libwebp holds the
 * picture several times over: 1 GB and 40 s for a transparent 40-megapixel one), and its metadata
 * lives in chunks of its own, so its image data is kept as it came.
 */
async function rewriteWebp(data: Buffer): Promise<Buffer> {
  const stripped = stripWebpMetadata(data);
  if (!stripped) throw new Error('the WebP container is not whole');
  // `linear`, not `nearest`: nearest-neighbour skips rows, so a cut-off tail would go unread.
  await sharp(stripped, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true })
    .resize(PROBE_SIDE, PROBE_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: 'linear' })
    .raw()
    .toBuffer();
  return stripped;
}

/**
 * A JPEG, PNG or GIF decoded whole and encoded again in its own format, pixels only: JPEG at
 * quality 90 with the chroma subsampling it had, baseline and without optimised Huffman tables
 * (both would hold every coefficient of the output at once); PNG lossless, as truecolour (a
 * palette is expanded: quantising again would change pixels); GIF with all its frames.
 */
async function encodeAnew(data: Buffer, meta: Metadata): Promise<Buffer> {
  const animated = frameCount(meta) > 1;
  const image = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true, ...(animated ? { pages: -1 } : {}) });
  const oriented = animated ? image : image.autoOrient();
  switch (meta.format) {
    case 'jpeg':
      return oriented.jpeg({ quality: 90, chromaSubsampling: meta.chromaSubsampling?.startsWith('4:4:4') ? '4:4:4' : '4:2:0', optimiseCoding: false }).toBuffer();
    case 'png':
      return oriented.png().toBuffer();
    default:
      return oriented.gif().toBuffer();
  }
}

/**
 * Checks an uploaded picture and writes it anew without what it carries beside its pixels.
 *
 * Its header must name the format its content was taken for and a size within
 * {@link MAX_IMAGE_PIXELS}; checking it must fit the process's `budget` (what it takes is
 * {@link imageCost}); then it is decoded whole — every row, `failOn: 'error'`: a truncated or
 * corrupt file fails, the warnings many cameras' files raise do not. What is kept has the pixels as
 * they were meant to be seen and nothing else: a JPEG, PNG or GIF is encoded again
 * ({@link encodeAnew}) with its EXIF orientation applied (the pixels turned, no tag) and its colours
 * converted to sRGB from an embedded ICC profile (then dropped); a WebP keeps its image data and
 * colour profile ({@link rewriteWebp}). None keeps EXIF (GPS, camera, dates, descriptions), XMP,
 * IPTC, comments or PNG text chunks. An animation keeps its frames and timing.
 */
export async function cleanImage(data: Buffer, kind: FileKind, budget: ImageBudget): Promise<CleanedImage> {
  let meta: Metadata;
  try {
    // The header alone (no limit here: the limit is ours to report, with the size).
    meta = await sharp(data, { limitInputPixels: false }).metadata();
    if (meta.format !== IMAGE_FORMATS[kind] || !meta.width || !meta.height) return { ok: false, reason: 'unreadable' };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const frames = frameCount(meta);
  const { width } = meta;
  const height = frameHeight(meta);
  if (width * height * frames > MAX_IMAGE_PIXELS) return { ok: false, reason: 'too_large', width, height, frames };
  const cost = imageCost(meta, data);
  if (cost > budget.bytes) {
    const fixed = imageCost({ ...meta, width: 1, height: 1, pageHeight: 1 }, data);
    return { ok: false, reason: 'too_costly', width, height, maxPixels: Math.floor((width * height * (budget.bytes - fixed)) / (cost - fixed)) };
  }
  try {
    const cleaned = await budget.run(cost, () => (meta.format === 'webp' ? rewriteWebp(data) : encodeAnew(data, meta)));
    return { ok: true, data: cleaned };
  } catch (err) {
    if (err instanceof ImageBudgetBusy) return { ok: false, reason: 'busy' };
    return { ok: false, reason: 'unreadable' };
  }
}
