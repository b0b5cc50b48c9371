import { describe, expect, it } from 'vitest';
import { brushPixels, drawOverlay, drawStrokes, hasPaint, maskPng, toImagePoint, type Stroke } from './mask.ts';

/** A 2D context that records what is drawn. */
function recordingContext() {
  const log: string[] = [];
  const ctx = {
    canvas: { width: 400, height: 300 },
    set globalCompositeOperation(v: string) {
      log.push(`composite ${v}`);
    },
    set strokeStyle(v: string) {
      log.push(`stroke ${v}`);
    },
    set fillStyle(_v: string) {},
    set lineWidth(v: number) {
      log.push(`width ${String(v)}`);
    },
    lineCap: '',
    lineJoin: '',
    clearRect: () => log.push('clear'),
    beginPath: () => undefined,
    moveTo: (x: number, y: number) => log.push(`move ${String(x)},${String(y)}`),
    lineTo: (x: number, y: number) => log.push(`line ${String(x)},${String(y)}`),
    arc: (x: number, y: number, r: number) => log.push(`dot ${String(x)},${String(y)} r${String(r)}`),
    stroke: () => log.push('stroke'),
    fill: () => log.push('fill'),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, log };
}

const brush: Stroke = { tool: 'brush', size: 20, points: [{ x: 10, y: 10 }, { x: 50, y: 10 }] };
const eraser: Stroke = { tool: 'eraser', size: 10, points: [{ x: 30, y: 10 }] };

describe('the mask', () => {
  it('the overlay paints the brush over the image and the eraser cuts it away, in order', () => {
    const { ctx, log } = recordingContext();
    drawOverlay(ctx, [brush, eraser]);
    expect(log).toEqual(['clear', 'composite source-over', 'stroke rgba(236, 72, 153, 1)', 'width 20', 'move 10,10', 'line 50,10', 'stroke', 'composite destination-out', 'stroke #000', 'width 10', 'dot 30,10 r5', 'fill', 'composite source-over']);
  });

  it('the mask PNG cuts the brush out of the opaque fill (transparent = change) and the eraser fills it back', () => {
    const { ctx, log } = recordingContext();
    drawStrokes(ctx, [brush, eraser], { brush: { composite: 'destination-out', color: '#000' }, eraser: { composite: 'source-over', color: '#000' } });
    expect(log.filter((l) => l.startsWith('composite'))).toEqual(['composite destination-out', 'composite source-over', 'composite source-over']);
  });

  it('counts as painted only with a brush stroke', () => {
    expect(hasPaint([])).toBe(false);
    expect(hasPaint([eraser])).toBe(false);
    expect(hasPaint([eraser, brush])).toBe(true);
  });

  it('maps a pointer on the shown canvas to the image’s pixels, clamped to the image', () => {
    const rect = { left: 100, top: 50, width: 200, height: 150 };
    expect(toImagePoint(200, 125, rect, 800, 600)).toEqual({ x: 400, y: 300 });
    expect(toImagePoint(0, 0, rect, 800, 600)).toEqual({ x: 0, y: 0 });
    expect(toImagePoint(1000, 1000, rect, 800, 600)).toEqual({ x: 800, y: 600 });
  });

  it('sizes the brush by the image’s longer side, never under 2 pixels', () => {
    expect(brushPixels(0.05, 1000, 400)).toBe(50);
    expect(brushPixels(0.02, 400, 3000)).toBe(60);
    expect(brushPixels(0.02, 20, 20)).toBe(2);
  });

  it('answers null where a canvas cannot be drawn (the tests’ DOM)', async () => {
    const doc = { createElement: () => ({ getContext: () => null }) } as unknown as Document;
    expect(await maskPng([brush], 10, 10, doc)).toBeNull();
  });
});
