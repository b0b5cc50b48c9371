import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DemoProvider } from '../../src/providers/demo/demo.provider.ts';
import { bundledFfmpeg } from '../../src/providers/demo/demo-video.ts';
import { FINAL_PREDICTION_STATUSES, type Prediction, type PredictionProvider } from '../../src/providers/types.ts';

const demo = new DemoProvider({ predictionStepDelayMs: 0 });
const small = { width: 128, height: 72, duration: 1, fps: 8 };
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'demo-predictions-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Polls as a job without webhooks would, recording every state seen. */
async function untilFinal(provider: PredictionProvider, id: string): Promise<Prediction[]> {
  const seen: Prediction[] = [];
  for (;;) {
    const p = await provider.get(id);
    seen.push(p);
    if (FINAL_PREDICTION_STATUSES.includes(p.status)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What ffmpeg reads from a file: its video codec, size and decoded frame count. */
async function probe(data: Buffer): Promise<{ codec: string; size: string; frames: number }> {
  const ffmpeg = await bundledFfmpeg();
  if (!ffmpeg) throw new Error('the bundled ffmpeg does not run here');
  const file = join(dir, `probe-${String(Math.random()).slice(2)}.mp4`);
  await writeFile(file, data);
  const { stderr } = await promisify(execFile)(ffmpeg, ['-hide_banner', '-i', file, '-map', '0:v:0', '-f', 'null', '-']);
  const stream = /Stream #0:0[^:]*: Video: (\w+)[^\n]*?, (\d+x\d+)/.exec(stderr);
  const frames = [...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1];
  return { codec: stream?.[1] ?? '', size: stream?.[2] ?? '', frames: Number(frames) };
}

describe('video', () => {
  test('the bundled ffmpeg runs here', async () => {
    expect(await bundledFfmpeg()).toMatch(/ffmpeg$/);
  });

  test('starting → processing with progress → succeeded: an H.264 MP4 that decodes, frame for frame', async () => {
    const paced = new DemoProvider({ predictionStepDelayMs: 5 });
    const created = await paced.create({ model: 'demo/video', input: { prompt: 'Волны на закате', ...small } });
    expect(created).toMatchObject({ status: 'starting', output: [], error: null, progress: 0 });
    const seen = await untilFinal(paced, created.id);
    const last = seen.at(-1);
    expect(last).toMatchObject({ status: 'succeeded', progress: 1, error: null, output: [`demo://predictions/${created.id}/output.mp4`] });
    const progress = seen.map((p) => p.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.some((p) => p.status === 'processing' && (p.progress ?? 0) > 0 && (p.progress ?? 0) < 1)).toBe(true);
    const file = await paced.download(last?.output[0] ?? '', { maxBytes: 10_000_000 });
    expect(file.mime).toBe('video/mp4');
    expect(file.data.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(await probe(file.data)).toEqual({ codec: 'h264', size: '128x72', frames: 8 });
  });

  test('deterministic: the same input gives the same bytes', async () => {
    const input = { prompt: 'Неоновый город', ...small };
    const [a, b] = await Promise.all([demo.create({ model: 'demo/video', input }), demo.create({ model: 'demo/video', input })]);
    expect(a.id).not.toBe(b.id);
    const files = await Promise.all(
      [a, b].map(async (p) => {
        const url = (await untilFinal(demo, p.id)).at(-1)?.output[0] ?? '';
        return (await demo.download(url, { maxBytes: 10_000_000 })).data;
      }),
    );
    expect(files[0]?.equals(files[1] ?? Buffer.alloc(0))).toBe(true);
  });

  test('image-to-video from a data: URL pans across the still', async () => {
    const still = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#d04020' } }).png().toBuffer();
    const created = await demo.create({ model: 'demo/video', input: { prompt: 'Оживи фото', image: `data:image/png;base64,${still.toString('base64')}`, ...small } });
    const last = (await untilFinal(demo, created.id)).at(-1);
    expect(last?.status).toBe('succeeded');
    const file = await demo.download(last?.output[0] ?? '', { maxBytes: 10_000_000 });
    expect(await probe(file.data)).toMatchObject({ codec: 'h264', frames: 8 });
  });

  test('without ffmpeg: an animated WebP of every frame', async () => {
    const webp = new DemoProvider({ predictionStepDelayMs: 0, ffmpegPath: null });
    const created = await webp.create({ model: 'demo/video', input: { prompt: 'Звёздная ночь', ...small } });
    const last = (await untilFinal(webp, created.id)).at(-1);
    expect(last?.output).toEqual([`demo://predictions/${created.id}/output.webp`]);
    const file = await webp.download(last?.output[0] ?? '', { maxBytes: 10_000_000 });
    expect(file.mime).toBe('image/webp');
    const meta = await sharp(file.data, { animated: true }).metadata();
    expect(meta).toMatchObject({ format: 'webp', pages: 8, width: 128, pageHeight: 72, loop: 0 });
    expect(meta.delay).toEqual(Array.from({ length: 8 }, () => 125));
  });

  test('a failed run: an input image that is no image', async () => {
    const created = await demo.create({ model: 'demo/video', input: { prompt: 'x', image: 'data:image/png;base64,AAAA', ...small } });
    const last = (await untilFinal(demo, created.id)).at(-1);
    expect(last).toMatchObject({ status: 'failed', output: [] });
    expect(last?.error).toContain('not an image');
  });

  test('an encoder that fails or is missing fails the prediction, and nothing else', async () => {
    for (const ffmpegPath of ['/bin/false', join(dir, 'no-such-ffmpeg')]) {
      const broken = new DemoProvider({ predictionStepDelayMs: 0, ffmpegPath });
      const created = await broken.create({ model: 'demo/video', input: { prompt: 'x', ...small } });
      const last = (await untilFinal(broken, created.id)).at(-1);
      expect(last).toMatchObject({ status: 'failed', output: [] });
      expect(last?.error).toMatch(/ffmpeg/);
    }
  });

  test('cancel stops a running prediction for good', async () => {
    const slow = new DemoProvider({ predictionStepDelayMs: 60_000 });
    const created = await slow.create({ model: 'demo/video', input: { prompt: 'x', ...small } });
    expect((await slow.cancel(created.id)).status).toBe('canceled');
    expect(await slow.get(created.id)).toMatchObject({ status: 'canceled', output: [] });
    expect((await slow.cancel(created.id)).status).toBe('canceled');
  });
});

describe('image predictions and files', () => {
  test('an image model draws num_outputs PNGs at the aspect ratio asked for', async () => {
    const created = await demo.create({ model: 'demo/flux-image', input: { prompt: 'Горы', num_outputs: 2, aspect_ratio: '16:9' } });
    const last = (await untilFinal(demo, created.id)).at(-1);
    expect(last?.output).toEqual([0, 1].map((i) => `demo://predictions/${created.id}/output-${i}.png`));
    const file = await demo.download(last?.output[1] ?? '', { maxBytes: 10_000_000 });
    expect(file.mime).toBe('image/png');
    expect(await sharp(file.data).metadata()).toMatchObject({ format: 'png', width: 512, height: 288 });
  });

  test('downloads: unknown URLs are bad requests, files over maxBytes invalid responses', async () => {
    await expect(demo.download('demo://predictions/nope/output.mp4', { maxBytes: 10 })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(demo.download('https://example.test/x.mp4', { maxBytes: 10 })).rejects.toMatchObject({ kind: 'bad_request' });
    const created = await demo.create({ model: 'demo/image', input: { prompt: 'Сад' } });
    const url = (await untilFinal(demo, created.id)).at(-1)?.output[0] ?? '';
    await expect(demo.download(url, { maxBytes: 10 })).rejects.toMatchObject({ kind: 'invalid_response' });
    await expect(demo.get('nope')).rejects.toMatchObject({ kind: 'bad_request' });
  });
});
