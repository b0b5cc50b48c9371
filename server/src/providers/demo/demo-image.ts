import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { ProviderError, type GeneratedImage } from '../types.ts';
import { captionLayer, sceneSvg } from './demo-scene.ts';

/** The longest side the demo draws. */
export const DEMO_MAX_SIDE = 1024;

/** `WIDTHxHEIGHT` (or `auto`: 1024×1024) scaled down to fit {@link DEMO_MAX_SIDE}, keeping the proportions. */
export function parseSize(size: string): { width: number; height: number } {
  if (size === 'auto') return { width: DEMO_MAX_SIDE, height: DEMO_MAX_SIDE };
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 16 || height < 16) throw new ProviderError('bad_request', `demo: unsupported size "${size}"`);
  const scale = Math.min(1, DEMO_MAX_SIDE / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** 0–1 detail from OpenAI's quality names. */
export function detailOf(quality: string | undefined): number {
  if (quality === 'low') return 0.2;
  if (quality === 'high' || quality === 'hd') return 1;
  return 0.6;
}

type Rgb = { r: number; g: number; b: number };

/** Options shared by the demo's image operations. */
export interface DemoImageOptions {
  prompt: string;
  variant: number;
  detail: number;
  label: string;
}

/** An input image, turned upright by its EXIF orientation, with its upright size. */
async function decode(data: Buffer, what: string): Promise<{ image: Sharp; width: number; height: number }> {
  try {
    const image = sharp(data, { autoOrient: true });
    const { autoOrient } = await image.metadata();
    return { image, width: autoOrient.width, height: autoOrient.height };
  } catch (e) {
    throw new ProviderError('bad_request', `demo: ${what} is not an image sharp can read`, { cause: e });
  }
}

/** The dominant colour of an image (the reference images' «style»). */
async function dominant(data: Buffer): Promise<Rgb> {
  return (await (await decode(data, 'a reference image')).image.stats()).dominant;
}

async function withCaption(base: Sharp, o: DemoImageOptions, width: number, height: number): Promise<Buffer> {
  const caption = await captionLayer(o.prompt, width, height, o.label);
  return (caption ? base.composite([{ input: caption }]) : base).png().toBuffer();
}

function renderScene(o: DemoImageOptions, width: number, height: number, extra: { tint?: Rgb | null; opacity?: number } = {}): Promise<Buffer> {
  const svg = sceneSvg({ prompt: o.prompt, width, height, variant: o.variant, detail: o.detail, t: 0, ...extra });
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A new picture for a prompt: PNG of exactly `width`×`height`. */
export async function drawPicture(o: DemoImageOptions, width: number, height: number): Promise<GeneratedImage> {
  return { data: await withCaption(sharp(await renderScene(o, width, height)), o, width, height), mime: 'image/png' };
}

/**
 * The user's image restyled for the prompt, at `width`×`height` (cropped to fill): the scene is
 * laid over it in soft-light, so its shapes and light stay recognisable while the colours and
 * motif come from the prompt; a reference image (the second one) tints it with its dominant
 * colour and appears as a small inset.
 */
export async function restyle(images: Buffer[], o: DemoImageOptions, width: number, height: number): Promise<GeneratedImage> {
  const [first, reference] = images;
  if (!first) throw new ProviderError('bad_request', 'demo: no image to edit');
  const tint = reference ? await dominant(reference) : null;
  const base = await (await decode(first, 'the image')).image.resize(width, height, { fit: 'cover' }).removeAlpha().png().toBuffer();
  const layers: OverlayOptions[] = [{ input: await renderScene(o, width, height, { tint }), blend: 'soft-light' }];
  if (reference) {
    const side = Math.round(Math.min(width, height) / 5);
    const inset = await (await decode(reference, 'a reference image')).image
      .resize(side, side, { fit: 'cover' })
      .extend({ top: 3, bottom: 3, left: 3, right: 3, background: '#ffffff' })
      .png()
      .toBuffer();
    layers.push({ input: inset, top: height - side - 6 - Math.round(height / 6), left: width - side - 6 - Math.round(width / 40) });
  }
  const styled = await sharp(base).composite(layers).modulate({ saturation: 1.15 }).png().toBuffer();
  return { data: await withCaption(sharp(styled), o, width, height), mime: 'image/png' };
}

/**
 * Inpainting at `width`×`height` (the size asked for and paid for, as OpenAI's edits answer): the
 * image and the mask are scaled (cropped to fill, as `restyle` does) to that size the same way,
 * then the pixels where the mask is fully transparent are repainted (the scene over the image at
 * 75 % with the caption) and every other pixel is the scaled input's, unchanged. The mask must have
 * the same size as the input.
 */
export async function inpaint(images: Buffer[], mask: Buffer, o: DemoImageOptions, width: number, height: number): Promise<GeneratedImage> {
  const [first, reference] = images;
  if (!first) throw new ProviderError('bad_request', 'demo: no image to edit');
  const input = await decode(first, 'the image');
  const maskInput = await decode(mask, 'the mask');
  if (maskInput.width !== input.width || maskInput.height !== input.height) {
    throw new ProviderError('bad_request', `demo: the mask is ${maskInput.width}×${maskInput.height}, the image ${input.width}×${input.height}`);
  }
  const raw = { raw: { width, height, channels: 4 as const } };
  const base = await input.image.resize(width, height, { fit: 'cover' }).ensureAlpha().raw().toBuffer();
  // Nearest neighbour: a painted pixel stays fully transparent, an unpainted one opaque.
  const alpha = await maskInput.image.resize(width, height, { fit: 'cover', kernel: 'nearest' }).ensureAlpha().extractChannel(3).raw().toBuffer();
  const tint = reference ? await dominant(reference) : null;
  const caption = await captionLayer(o.prompt, width, height, o.label);
  const layers: OverlayOptions[] = [{ input: await renderScene(o, width, height, { tint, opacity: 0.75 }) }, ...(caption ? [{ input: caption }] : [])];
  const repaint = await sharp(base, raw).composite(layers).ensureAlpha().raw().toBuffer();
  const out = Buffer.from(base);
  for (let i = 0; i < alpha.length; i += 1) {
    if (alpha[i] === 0) repaint.copy(out, i * 4, i * 4, i * 4 + 4);
  }
  return { data: await sharp(out, raw).png().toBuffer(), mime: 'image/png' };
}
