/** Chunks a WebP keeps: its image (lossy, lossless, alpha), its animation and its colour profile. */
const KEPT = new Set(['VP8X', 'VP8 ', 'VP8L', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
/** Chunks an animation frame keeps after its 16-byte header. */
const FRAME_KEPT = new Set(['VP8 ', 'VP8L', 'ALPH']);
/** VP8X's flags for EXIF and XMP chunks. */
const EXIF_FLAG = 0x08;
const XMP_FLAG = 0x04;

/** The chunks in `data[start, end)`, or null when one runs past the end. */
function chunksOf(data: Buffer, start: number, end: number): { type: string; payload: Buffer }[] | null {
  const chunks: { type: string; payload: Buffer }[] = [];
  let at = start;
  while (at < end) {
    if (at + 8 > end) return null;
    const size = data.readUInt32LE(at + 4);
    if (at + 8 + size > end) return null;
    chunks.push({ type: data.toString('latin1', at, at + 4), payload: data.subarray(at + 8, at + 8 + size) });
    // Odd sizes are padded to an even length.
    at += 8 + size + (size % 2);
  }
  return chunks;
}

/** Whether a WebP's image (or its first frame's) is lossless (`VP8L`); false for anything else. */
export function isLosslessWebp(data: Buffer): boolean {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'RIFF') return false;
  const chunks = chunksOf(data, 12, Math.min(data.length, 8 + data.readUInt32LE(4))) ?? [];
  const image = chunks.find((c) => c.type === 'VP8L' || c.type === 'VP8 ' || c.type === 'ANMF');
  if (image?.type !== 'ANMF') return image?.type === 'VP8L';
  return (chunksOf(image.payload, 16, image.payload.length) ?? []).some((c) => c.type === 'VP8L');
}

function chunk(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat(payload.length % 2 ? [header, payload, Buffer.alloc(1)] : [header, payload]);
}

/**
 * A WebP without its metadata, its image data untouched: the container is rewritten keeping only
 * the chunks of {@link KEPT} (each animation frame only its image), so EXIF, XMP, unknown chunks
 * and anything after the RIFF's declared end are gone, and the extended header no longer announces
 * them. Browsers already ignore a WebP's EXIF orientation (it comes after the image data), so the
 * picture looks the same. Null when the container is not whole.
 */
export function stripWebpMetadata(data: Buffer): Buffer | null {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return null;
  const end = 8 + data.readUInt32LE(4);
  if (end > data.length) return null;
  const chunks = chunksOf(data, 12, end);
  if (!chunks) return null;
  const kept: Buffer[] = [];
  for (const { type, payload } of chunks) {
    if (!KEPT.has(type)) continue;
    if (type === 'VP8X' && payload.length >= 1) {
      const header = Buffer.from(payload);
      header.writeUInt8(header.readUInt8(0) & ~(EXIF_FLAG | XMP_FLAG), 0);
      kept.push(chunk(type, header));
    } else if (type === 'ANMF' && payload.length >= 16) {
      const frame = chunksOf(payload, 16, payload.length);
      if (!frame) return null;
      kept.push(chunk(type, Buffer.concat([payload.subarray(0, 16), ...frame.filter((c) => FRAME_KEPT.has(c.type)).map((c) => chunk(c.type, c.payload))])));
    } else {
      kept.push(chunk(type, payload));
    }
  }
  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
