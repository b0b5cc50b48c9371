import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { DemoProvider } from '../../src/providers/demo/demo.provider.ts';
import { canRenderText } from '../../src/providers/demo/demo-scene.ts';
import { ProviderError, type GenerationProgress } from '../../src/providers/types.ts';

const demo = new DemoProvider({ imageStepDelayMs: 0 });

async function rgba(data: Buffer): Promise<{ pixels: Buffer; width: number; height: number }> {
  const { data: pixels, info } = await sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { pixels, width: info.width, height: info.height };
}

/** Mean absolute difference per channel, 0–255, of two images of the same size. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([rgba(a), rgba(b)]);
  let sum = 0;
  for (let i = 0; i < x.pixels.length; i += 1) sum += Math.abs((x.pixels[i] ?? 0) - (y.pixels[i] ?? 0));
  return sum / x.pixels.length;
}

/** Mean luminance of the columns [from, to) of an image. */
async function meanLuma(data: Buffer, from: number, to: number): Promise<number> {
  const { pixels, width, height } = await rgba(data);
  let sum = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = from; x < to; x += 1) {
      const i = (y * width + x) * 4;
      sum += 0.299 * (pixels[i] ?? 0) + 0.587 * (pixels[i + 1] ?? 0) + 0.114 * (pixels[i + 2] ?? 0);
    }
  }
  return sum / ((to - from) * height);
}

/** A deterministic photo-like test picture: gradients in each channel. */
function testPicture(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = ((x + y) * 7) % 256;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

describe('generate', () => {
  test('real PNGs at the requested size, scaled to fit 1024, with progress in steps', async () => {
    const progress: GenerationProgress[] = [];
    const result = await demo.generate({ model: 'demo', prompt: 'Кот в космосе', n: 2, size: '256x192', onProgress: (p) => progress.push(p) });
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect(image.mime).toBe('image/png');
      expect(await sharp(image.data).metadata()).toMatchObject({ format: 'png', width: 256, height: 192 });
    }
    expect(progress).toEqual(Array.from({ length: 8 }, (_, i) => ({ step: i + 1, totalSteps: 8 })));
    expect(result.usage?.inputTokens).toBe(3);
    const wide = await demo.generate({ model: 'demo', prompt: 'Горы', n: 1, size: '1536x1024' });
    expect(await sharp(wide.images[0]?.data).metadata()).toMatchObject({ width: 1024, height: 683 });
    const auto = await demo.generate({ model: 'demo', prompt: 'Горы', n: 1, size: 'auto', quality: 'low' });
    expect(await sharp(auto.images[0]?.data).metadata()).toMatchObject({ width: 1024, height: 1024 });
  });

  test('deterministic, and visibly different per prompt and per variant', async () => {
    const one = await demo.generate({ model: 'demo', prompt: 'Море на рассвете', n: 2, size: '256x256' });
    const again = await demo.generate({ model: 'demo', prompt: 'Море на рассвете', n: 2, size: '256x256' });
    const other = await demo.generate({ model: 'demo', prompt: 'Неоновый город ночью', n: 1, size: '256x256' });
    const [first, second] = one.images.map((i) => i.data);
    expect(first && again.images[0]?.data.equals(first)).toBe(true);
    expect(second && again.images[1]?.data.equals(second)).toBe(true);
    expect(await difference(first ?? Buffer.alloc(0), other.images[0]?.data ?? Buffer.alloc(0))).toBeGreaterThan(20);
    expect(await difference(first ?? Buffer.alloc(0), second ?? Buffer.alloc(0))).toBeGreaterThan(5);
  });

  test('bad requests: a size it cannot read, n out of range', async () => {
    await expect(demo.generate({ model: 'demo', prompt: 'x', n: 1, size: '12x' as '1x1' })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(demo.generate({ model: 'demo', prompt: 'x', n: 11, size: '256x256' })).rejects.toMatchObject({ kind: 'bad_request' });
  });

  test('an abort between steps throws aborted', async () => {
    const controller = new AbortController();
    const run = demo.generate({ model: 'demo', prompt: 'x', n: 2, size: '64x64', signal: controller.signal, onProgress: () => controller.abort() });
    await expect(run).rejects.toBeInstanceOf(ProviderError);
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('edit', () => {
  test('the example image is used: its light and dark halves stay where they were', async () => {
    const half = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#000' } })
      .composite([{ input: await sharp({ create: { width: 128, height: 256, channels: 3, background: '#fff' } }).png().toBuffer(), left: 128, top: 0 }])
      .png()
      .toBuffer();
    const prompt = 'Абстрактная композиция';
    const edited = (await demo.edit({ model: 'demo', prompt, images: [half], size: '256x256', n: 1 })).images[0]?.data ?? Buffer.alloc(0);
    expect(await sharp(edited).metadata()).toMatchObject({ format: 'png', width: 256, height: 256 });
    expect((await meanLuma(edited, 128, 256)) - (await meanLuma(edited, 0, 128))).toBeGreaterThan(80);
    const generated = (await demo.generate({ model: 'demo', prompt, n: 1, size: '256x256' })).images[0]?.data ?? Buffer.alloc(0);
    expect(await difference(edited, generated)).toBeGreaterThan(20);
  });

  test('a second (style) image changes the result; the same inputs give the same bytes', async () => {
    const photo = await testPicture(200, 150);
    const style = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#e0204a' } }).png().toBuffer();
    const plain = await demo.edit({ model: 'demo', prompt: 'Акварель', images: [photo], size: '200x150', n: 1 });
    const styled = await demo.edit({ model: 'demo', prompt: 'Акварель', images: [photo, style], size: '200x150', n: 1 });
    const again = await demo.edit({ model: 'demo', prompt: 'Акварель', images: [photo, style], size: '200x150', n: 1 });
    expect(await difference(plain.images[0]?.data ?? Buffer.alloc(0), styled.images[0]?.data ?? Buffer.alloc(0))).toBeGreaterThan(3);
    expect(again.images[0]?.data.equals(styled.images[0]?.data ?? Buffer.alloc(0))).toBe(true);
  });

  /** A mask of `width`×`height`: opaque, fully transparent where `hole` says, half transparent along the row `halfRow` (kept too). */
  const paintedMask = (width: number, height: number, hole: (x: number, y: number) => boolean, halfRow: number) => {
    const maskRaw = Buffer.alloc(width * height * 4, 255);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        if (hole(x, y)) maskRaw[(y * width + x) * 4 + 3] = 0;
        else if (y === halfRow) maskRaw[(y * width + x) * 4 + 3] = 128;
      }
    }
    return sharp(maskRaw, { raw: { width, height, channels: 4 } }).png().toBuffer();
  };

  /** Pixels of the result that differ from the input scaled to the result's size, inside and outside the hole (in the result's pixels). */
  async function changes(result: Buffer, photo: Buffer, hole: (x: number, y: number) => boolean) {
    const out = await rgba(result);
    const input = await rgba(await sharp(photo).resize(out.width, out.height, { fit: 'cover' }).png().toBuffer());
    let inHole = 0;
    let outside = 0;
    let holeSize = 0;
    for (let y = 0; y < out.height; y += 1) {
      for (let x = 0; x < out.width; x += 1) {
        const i = (y * out.width + x) * 4;
        const same = out.pixels.subarray(i, i + 4).equals(input.pixels.subarray(i, i + 4));
        if (hole(x, y)) {
          holeSize += 1;
          inHole += same ? 0 : 1;
        } else outside += same ? 0 : 1;
      }
    }
    return { width: out.width, height: out.height, inHole: inHole / holeSize, outside };
  }

  test('a mask: only its fully transparent pixels are repainted, every other pixel is the input’s', async () => {
    const [width, height] = [96, 64];
    const photo = await testPicture(width, height);
    const hole = (x: number, y: number) => x >= 20 && x < 60 && y >= 10 && y < 40;
    const mask = await paintedMask(width, height, hole, 50);
    const progress: number[] = [];
    const result = await demo.edit({ model: 'demo', prompt: 'Добавь луну', images: [photo], mask, size: '96x64', n: 1, onProgress: (p) => progress.push(p.step) });
    expect(progress).toEqual([1, 2, 3, 4]);
    const input = await rgba(photo);
    const changed = await changes(result.images[0]?.data ?? Buffer.alloc(0), photo, hole);
    expect([changed.width, changed.height]).toEqual([width, height]);
    // At the input's own size the kept pixels are the input's, byte for byte.
    expect((await rgba(await sharp(photo).resize(width, height, { fit: 'cover' }).png().toBuffer())).pixels.equals(input.pixels)).toBe(true);
    expect(changed.outside).toBe(0);
    expect(changed.inHole).toBeGreaterThan(0.9);
  });

  test('a mask run answers the size asked for (and paid for): a 512×512 picture repainted at «Квадрат 1024×1024» is 1024×1024, at «Портрет 768×1024» 768×1024', async () => {
    const photo = await testPicture(512, 512);
    // The left half painted; the mask's half-transparent row is kept.
    const mask = await paintedMask(512, 512, (x) => x < 256, 400);
    const square = await demo.edit({ model: 'demo', prompt: 'Лес', images: [photo], mask, size: '1024x1024', n: 1 });
    const big = await changes(square.images[0]?.data ?? Buffer.alloc(0), photo, (x) => x < 512);
    expect([big.width, big.height]).toEqual([1024, 1024]);
    expect(big.outside).toBe(0);
    expect(big.inHole).toBeGreaterThan(0.9);
    // Another shape: cropped to fill (the square's middle columns 64–447, doubled), the hole following the picture: painted columns 64–255 are the result's 0–383.
    const portrait = await demo.edit({ model: 'demo', prompt: 'Лес', images: [photo], mask, size: '768x1024', n: 1 });
    const tall = await changes(portrait.images[0]?.data ?? Buffer.alloc(0), photo, (x) => x < 384);
    expect([tall.width, tall.height]).toEqual([768, 1024]);
    expect(tall.outside).toBe(0);
    expect(tall.inHole).toBeGreaterThan(0.9);
  });

  test('a mask of another size, or bytes that are no image, are bad requests', async () => {
    const photo = await testPicture(64, 64);
    const mask = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    await expect(demo.edit({ model: 'demo', prompt: 'x', images: [photo], mask, size: '64x64', n: 1 })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(demo.edit({ model: 'demo', prompt: 'x', images: [Buffer.from('nope')], size: '64x64', n: 1 })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(demo.edit({ model: 'demo', prompt: 'x', images: [], size: '64x64', n: 1 })).rejects.toMatchObject({ kind: 'bad_request' });
  });
});

describe('fonts', () => {
  test('with a Cyrillic font the caption is drawn; without any font the picture has shapes only', async () => {
    expect(await canRenderText()).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'no-fonts-'));
    try {
      const conf = join(dir, 'fonts.conf');
      await writeFile(conf, `<?xml version="1.0"?><fontconfig><dir>${join(dir, 'none')}</dir><cachedir>${join(dir, 'cache')}</cachedir></fontconfig>`);
      const script = [
        `const { canRenderText } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../src/providers/demo/demo-scene.ts')).href)});`,
        `const { drawPicture } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../src/providers/demo/demo-image.ts')).href)});`,
        "const image = await drawPicture({ prompt: 'Кот', variant: 0, detail: 0.6, label: 'Демо' }, 64, 64);",
        'console.log(JSON.stringify({ text: await canRenderText(), bytes: image.data.length }));',
      ].join('\n');
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, FONTCONFIG_FILE: conf } });
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { text: boolean; bytes: number };
      expect(result.text).toBe(false);
      expect(result.bytes).toBeGreaterThan(100);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
