import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { ProviderError } from '../types.ts';
import { captionLayer, sceneSvg } from './demo-scene.ts';

/** A rendered clip. */
export interface Clip {
  data: Buffer;
  /** MP4 (H.264) when ffmpeg runs here, else an animated WebP. */
  mime: 'video/mp4' | 'image/webp';
}

/** What to render. */
export interface ClipOptions {
  prompt: string;
  /** Even numbers (H.264 with 4:2:0 chroma needs them). */
  width: number;
  height: number;
  frames: number;
  fps: number;
  /** A still the clip pans across (image-to-video). */
  image?: Buffer;
  label: string;
  /** The ffmpeg binary, or null for an animated WebP. */
  ffmpegPath: string | null;
  signal?: AbortSignal;
  /** Called after each frame (`done` of `total`, the encoding being the last step). */
  onProgress?: (done: number, total: number) => void | Promise<void>;
}

let bundled: Promise<string | null> | undefined;

/**
 * The ffmpeg binary of `@ffmpeg-installer/ffmpeg` (shipped inside its platform package), when
 * it is installed for this platform and runs; null otherwise. Checked once per process.
 */
export function bundledFfmpeg(): Promise<string | null> {
  bundled ??= (async () => {
    let path: string;
    try {
      path = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    } catch {
      return null;
    }
    const runs = await new Promise<boolean>((resolve) => {
      execFile(path, ['-hide_banner', '-version'], { timeout: 10_000 }, (error) => resolve(!error));
    });
    return runs ? path : null;
  })();
  return bundled;
}

const aborted = () => new ProviderError('aborted', 'demo: the clip was aborted');

async function* frames(o: ClipOptions): AsyncGenerator<Buffer> {
  const { width, height } = o;
  const caption = await captionLayer(o.prompt, width, height, o.label);
  // Image-to-video: the still, a little larger than the frame, panned and zoomed across.
  const still = o.image
    ? await sharp(o.image, { autoOrient: true })
        .resize(Math.round(width * 1.2), Math.round(height * 1.2), { fit: 'cover' })
        .removeAlpha()
        .png()
        .toBuffer()
        .catch((e: unknown) => {
          throw new ProviderError('bad_request', 'demo: the input image is not an image sharp can read', { cause: e });
        })
    : null;
  for (let i = 0; i < o.frames; i += 1) {
    const t = i / o.frames;
    const svg = sceneSvg({ prompt: o.prompt, width, height, variant: 0, detail: 0.6, t, opacity: still ? 0.35 : 1 });
    const layers: OverlayOptions[] = [{ input: Buffer.from(svg) }, ...(caption ? [{ input: caption }] : [])];
    let frame: Sharp;
    if (still) {
      // A slow circle inside the margin: the last frame leads back into the first.
      const left = Math.round(width * 0.1 * (1 - Math.cos(Math.PI * 2 * t)));
      const top = Math.round(height * 0.1 * (1 + Math.sin(Math.PI * 2 * t)));
      frame = sharp(await sharp(still).extract({ left, top, width, height }).toBuffer()).composite(layers);
    } else {
      frame = sharp({ create: { width, height, channels: 3, background: '#000' } }).composite(layers);
    }
    yield await frame.removeAlpha().raw().toBuffer();
  }
}

async function encodeMp4(o: ClipOptions, ffmpeg: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'demo-clip-'));
  const out = join(dir, 'clip.mp4');
  try {
    // Bit-exact flags, one thread and no metadata: the same frames always give the same file.
    const args = ['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${o.width}x${o.height}`, '-r', String(o.fps), '-i', 'pipe:0'];
    args.push('-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-crf', '26', '-threads', '1');
    args.push('-fflags', '+bitexact', '-flags:v', '+bitexact', '-map_metadata', '-1', '-movflags', '+faststart', '-y', out);
    const child = spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-2000)));
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    // Failures surface through the exit: an early one must not be an unhandled rejection, nor
    // a write to the dead process's stdin an unhandled error event.
    exited.catch(() => undefined);
    child.stdin.on('error', () => undefined);
    const stopped = exited.then((code) => {
      throw new ProviderError('unavailable', `demo: ffmpeg stopped early (${String(code)}): ${stderr.trim()}`, { retryable: false });
    });
    stopped.catch(() => undefined);
    const onAbort = () => child.kill('SIGKILL');
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let done = 0;
      for await (const frame of frames(o)) {
        if (o.signal?.aborted) throw aborted();
        if (!child.stdin.write(frame)) await Promise.race([once(child.stdin, 'drain'), stopped]);
        done += 1;
        await o.onProgress?.(done, o.frames + 1);
      }
      child.stdin.end();
      const code = await exited;
      if (o.signal?.aborted) throw aborted();
      if (code !== 0) throw new ProviderError('unavailable', `demo: ffmpeg exited with ${String(code)}: ${stderr.trim()}`, { retryable: false });
    } catch (e) {
      child.kill('SIGKILL');
      child.stdin.destroy();
      await exited.catch(() => undefined);
      throw e;
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function encodeWebp(o: ClipOptions): Promise<Buffer> {
  const raw: Buffer[] = [];
  for await (const frame of frames(o)) {
    if (o.signal?.aborted) throw aborted();
    raw.push(frame);
    await o.onProgress?.(raw.length, o.frames + 1);
  }
  const delay = Math.round(1000 / o.fps);
  return sharp(Buffer.concat(raw), { raw: { width: o.width, height: o.height * o.frames, channels: 3, pageHeight: o.height } })
    .webp({ quality: 70, loop: 0, delay: raw.map(() => delay) })
    .toBuffer();
}

/** Renders a looping clip for a prompt: frames drawn with sharp, encoded by ffmpeg (MP4) or sharp (animated WebP). */
export async function renderClip(o: ClipOptions): Promise<Clip> {
  if (o.signal?.aborted) throw aborted();
  const clip: Clip = o.ffmpegPath ? { data: await encodeMp4(o, o.ffmpegPath), mime: 'video/mp4' } : { data: await encodeWebp(o), mime: 'image/webp' };
  await o.onProgress?.(o.frames + 1, o.frames + 1);
  return clip;
}
