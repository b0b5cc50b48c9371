/**
 * The mask the user paints over their image: strokes of a brush (the area to change) and of an
 * eraser, in the image's own pixels. The same strokes draw the overlay the user sees and the
 * PNG sent with the run, whose fully transparent pixels mark the area to change (the images
 * edits protocol); everything else is opaque.
 */
export interface Point {
  x: number;
  y: number;
}

export interface Stroke {
  tool: 'brush' | 'eraser';
  /** Diameter in the image's pixels. */
  size: number;
  points: Point[];
}

/** How painted pixels look: the overlay shows the brush in colour; the mask cuts it out of an opaque fill. */
interface Paint {
  brush: { composite: GlobalCompositeOperation; color: string };
  eraser: { composite: GlobalCompositeOperation; color: string };
}

const OVERLAY: Paint = {
  brush: { composite: 'source-over', color: 'rgba(236, 72, 153, 1)' },
  eraser: { composite: 'destination-out', color: '#000' },
};

const MASK: Paint = {
  brush: { composite: 'destination-out', color: '#000' },
  eraser: { composite: 'source-over', color: '#000' },
};

/** Draws the strokes in order onto `ctx` (already cleared or filled). */
export function drawStrokes(ctx: CanvasRenderingContext2D, strokes: readonly Stroke[], paint: Paint): void {
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const stroke of strokes) {
    const style = paint[stroke.tool];
    ctx.globalCompositeOperation = style.composite;
    ctx.strokeStyle = style.color;
    ctx.fillStyle = style.color;
    ctx.lineWidth = stroke.size;
    const [first, ...rest] = stroke.points;
    if (!first) continue;
    if (rest.length === 0) {
      ctx.beginPath();
      ctx.arc(first.x, first.y, stroke.size / 2, 0, Math.PI * 2);
      ctx.fill();
      continue;
    }
    ctx.beginPath();
    ctx.moveTo(first.x, first.y);
    for (const p of rest) ctx.lineTo(p.x, p.y);
    ctx.stroke();
  }
  ctx.globalCompositeOperation = 'source-over';
}

/** Draws what the user sees over the image: painted areas in colour (the canvas is shown half transparent). */
export function drawOverlay(ctx: CanvasRenderingContext2D, strokes: readonly Stroke[]): void {
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  drawStrokes(ctx, strokes, OVERLAY);
}

/** Whether anything is painted after the eraser did its part (a mask of erased strokes only changes nothing). */
export const hasPaint = (strokes: readonly Stroke[]) => strokes.some((s) => s.tool === 'brush' && s.points.length > 0);

/** The mask PNG of `width`×`height`: opaque black with the painted area transparent. Null where canvas is not available. */
export async function maskPng(strokes: readonly Stroke[], width: number, height: number, doc: Document = document): Promise<Blob | null> {
  const canvas = doc.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, width, height);
  drawStrokes(ctx, strokes, MASK);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/png'));
}

/** Brush sizes offered, as a share of the image's longer side. */
export const BRUSH_SIZES = [
  { label: 'S', share: 0.02 },
  { label: 'M', share: 0.05 },
  { label: 'L', share: 0.1 },
] as const;

/** A brush's diameter in the image's pixels (at least 2). */
export const brushPixels = (share: number, width: number, height: number) => Math.max(2, Math.round(share * Math.max(width, height)));

/** A pointer's position over the shown canvas in the image's pixels. */
export function toImagePoint(clientX: number, clientY: number, rect: { left: number; top: number; width: number; height: number }, width: number, height: number): Point {
  const x = ((clientX - rect.left) / Math.max(rect.width, 1)) * width;
  const y = ((clientY - rect.top) / Math.max(rect.height, 1)) * height;
  return { x: Math.min(Math.max(x, 0), width), y: Math.min(Math.max(y, 0), height) };
}
