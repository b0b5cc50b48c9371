import zlib from 'node:zlib';

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
