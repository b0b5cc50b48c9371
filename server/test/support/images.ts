import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';

/* Pictures for upload tests: a real JPEG, and files that only look like pictures. */

/** A 4×3 JPEG that decodes (sharp made it). */
export const TINY_JPEG = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAADAAQDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AJAB58//2Q==',
  'base64',
);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** One PNG chunk with its length and a correct CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The IHDR chunk of an 8-bit RGB picture of `width` × `height`. */
function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8;
  data[9] = 2;
  return pngChunk('IHDR', data);
}

/** A well-formed PNG of 30000×30000 (900 megapixels) whose data is only its first row: a few hundred bytes that would take 2.7 GB decoded. */
export const HUGE_PNG = Buffer.concat([PNG_SIGNATURE, ihdr(30_000, 30_000), pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(30_000 * 3 + 1))), pngChunk('IEND', Buffer.alloc(0))]);

/** A JPEG's first 12 bytes (SOI and the start of JFIF APP0): `file-type` calls it a JPEG. */
export const JPEG_HEADER = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

/** A PNG's signature and IHDR of 64×64, and nothing else. */
export const HEADER_ONLY_PNG = Buffer.concat([PNG_SIGNATURE, ihdr(64, 64)]);

/** A PNG whose header is whole (its size reads fine) but whose pixel data is an empty IDAT. */
export const EMPTY_DATA_PNG = Buffer.concat([PNG_SIGNATURE, ihdr(64, 64), pngChunk('IDAT', Buffer.alloc(0)), pngChunk('IEND', Buffer.alloc(0))]);

/** The hostile files every picture upload must refuse, with the kind of error each gets. */
export const HOSTILE_IMAGES = [
  { label: 'a PNG claiming 30000×30000', filename: 'huge.png', type: 'image/png', data: HUGE_PNG, status: 413, message: 'Изображение «huge.png» (30000×30000) слишком большое: не больше 40 мегапикселей' },
  { label: 'a 12-byte JPEG header', filename: 'header.jpg', type: 'image/jpeg', data: JPEG_HEADER, status: 400, message: 'Не удалось прочитать изображение «header.jpg»: файл повреждён или загружен не полностью' },
  { label: 'a PNG with only its header', filename: 'header.png', type: 'image/png', data: HEADER_ONLY_PNG, status: 400, message: 'Не удалось прочитать изображение «header.png»: файл повреждён или загружен не полностью' },
  { label: 'a PNG with a whole header and no pixels', filename: 'empty.png', type: 'image/png', data: EMPTY_DATA_PNG, status: 400, message: 'Не удалось прочитать изображение «empty.png»: файл повреждён или загружен не полностью' },
] as const;

/**
 * A photo-like 8000×5000 progressive JPEG (a gradient and a disc, ~0.3 MB): decoding a progressive
 * JPEG holds all its coefficients at once (~120 MB at this size), whatever the scale asked for.
 * Drawn once and kept in the temporary directory (drawing it takes seconds).
 */
export async function progressiveJpeg8000x5000(): Promise<Buffer> {
  const file = path.join(os.tmpdir(), 'ns-test-images', 'progressive-8000x5000-v1.jpg');
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const [width, height] = [8000, 5000];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${String(width)}" height="${String(height)}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a6"/><stop offset="1" stop-color="#a36"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="4000" cy="2500" r="1800" fill="#fc3"/></svg>`;
  const data = await sharp(Buffer.from(svg), { limitInputPixels: false }).jpeg({ quality: 80, progressive: true }).toBuffer();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written aside and renamed into place: a test file running beside this one reads a whole file or none.
  const temporary = `${file}.${String(process.pid)}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
  return data;
}

/** Texts hidden in {@link photoWithMetadata}'s metadata: none may survive an upload. */
export const METADATA_MARKERS = ['Dacha u ozera', 'secret-xmp-marker', 'secret-iptc-marker', 'secret-comment-marker', 'Pixel 9 Pro'] as const;

/** GPS coordinates, a description and a camera, as a phone writes them (sharp's `withExif`). */
const PHONE_EXIF = {
  IFD0: { ImageDescription: 'Dacha u ozera', Make: 'Google', Model: 'Pixel 9 Pro', DateTime: '2025:07:14 18:03:11' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '55/1 45/1 2100/100', GPSLongitudeRef: 'E', GPSLongitude: '37/1 37/1 1900/100' },
};
const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description>secret-xmp-marker</dc:description></rdf:Description></rdf:RDF></x:xmpmeta>';

/** A JPEG segment: marker and a payload with its length. */
function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** An APP13 segment with an IPTC caption (record 2:120), as Photoshop writes it. */
function iptcSegment(caption: string): Buffer {
  const text = Buffer.from(caption, 'latin1');
  const iptc = Buffer.concat([Buffer.from([0x1c, 0x02, 0x78, text.length >> 8, text.length & 0xff]), text]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iptc.length);
  const block = Buffer.concat([Buffer.from('8BIM', 'latin1'), Buffer.from([0x04, 0x04, 0, 0]), size, iptc, Buffer.alloc(iptc.length % 2)]);
  return jpegSegment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), block]));
}

/**
 * A 48×64 photo as a phone leaves it: stored on its side (64×48) with EXIF orientation 6, so its
 * red corner shows at the top right once turned; pure red in sRGB, stored in Display P3 with the
 * profile (so the numbers stored are not sRGB's); GPS, description and camera in EXIF, a
 * description in XMP, and — in a JPEG — an IPTC caption and a comment too.
 */
export async function photoWithMetadata(format: 'jpeg' | 'webp'): Promise<Buffer> {
  const [width, height] = [64, 48];
  const pixels = Buffer.alloc(width * height * 3, 128);
  // The top left 24×24 red: after orientation 6 (a quarter turn clockwise) it is the top right.
  for (let y = 0; y < 24; y++) for (let x = 0; x < 24; x++) pixels.set([255, 0, 0], (y * width + x) * 3);
  const image = sharp(pixels, { raw: { width, height, channels: 3 } }).withExif(PHONE_EXIF).withMetadata({ orientation: 6 }).withXmp(XMP).withIccProfile('p3');
  if (format === 'webp') return image.webp({ quality: 95 }).toBuffer();
  const jpeg = await image.jpeg({ quality: 95 }).toBuffer();
  // After SOI: the IPTC caption and a comment, which sharp does not write.
  return Buffer.concat([jpeg.subarray(0, 2), iptcSegment('secret-iptc-marker'), jpegSegment(0xfe, Buffer.from('secret-comment-marker', 'latin1')), jpeg.subarray(2)]);
}

/**
 * A 16×16 PNG mask with transparency (its left half clear, the right half opaque white) and text
 * in every kind of PNG text chunk, an `eXIf` chunk with GPS and a `tIME`.
 */
export async function maskWithTextChunks(): Promise<Buffer> {
  const pixels = Buffer.alloc(16 * 16 * 4);
  for (let y = 0; y < 16; y++) for (let x = 8; x < 16; x++) pixels.set([255, 255, 255, 255], (y * 16 + x) * 4);
  const png = await sharp(pixels, { raw: { width: 16, height: 16, channels: 4 } }).png().toBuffer();
  const exif = (await sharp(png).withExif(PHONE_EXIF).jpeg().toBuffer().then((j) => sharp(j).metadata())).exif ?? Buffer.alloc(0);
  const chunks = [
    pngChunk('tEXt', Buffer.from('Description\0Dacha u ozera', 'latin1')),
    pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), zlib.deflateSync(Buffer.from('secret-comment-marker'))])),
    pngChunk('iTXt', Buffer.from('XML:com.adobe.xmp\0\0\0\0\0' + XMP, 'utf8')),
    // eXIf holds the TIFF structure alone, without JPEG's `Exif\0\0` prefix.
    pngChunk('eXIf', exif.subarray(6)),
    pngChunk('tIME', Buffer.from([0x07, 0xe9, 7, 14, 18, 3, 11])),
  ];
  // After IHDR (8 bytes of signature, 25 of IHDR): before the pixels, where readers look for them.
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
}

/** The chunk types of a PNG, in order. */
export function pngChunkTypes(png: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at + 8 <= png.length; at += 12 + png.readUInt32BE(at)) types.push(png.toString('latin1', at + 4, at + 8));
  return types;
}

/** The top-level chunks of a WebP, in order. */
export function webpChunks(webp: Buffer): { type: string; payload: Buffer }[] {
  const chunks: { type: string; payload: Buffer }[] = [];
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    chunks.push({ type: webp.toString('latin1', at, at + 4), payload: webp.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

/** The markers of a JPEG's segments before its image data (`0xe1` APP1, `0xed` APP13, `0xfe` a comment…). */
export function jpegMarkers(jpeg: Buffer): number[] {
  const markers: number[] = [];
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at] === 0xff; at += 2 + jpeg.readUInt16BE(at + 2)) {
    markers.push(jpeg.readUInt8(at + 1));
    if (jpeg[at + 1] === 0xda) break;
  }
  return markers;
}

/** A picture's pixels as 8-bit RGBA rows, what survives its upload. */
export const pixelsOf = (data: Buffer): Promise<Buffer> => sharp(data).ensureAlpha().raw().toBuffer();

/** The bytes of a base64 `data:` URL. */
export const dataUrlBytes = (url: string): Buffer => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
