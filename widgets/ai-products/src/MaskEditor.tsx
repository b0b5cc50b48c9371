import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Button } from '@app/kit';
import { BRUSH_SIZES, brushPixels, drawOverlay, toImagePoint, type Stroke } from './mask.ts';
import type { PickedImage } from './ImagePicker.tsx';

export interface MaskEditorProps {
  image: PickedImage;
  strokes: readonly Stroke[];
  onChange: (strokes: Stroke[]) => void;
  error: string | null;
}

/**
 * Paints the mask over the user's image: a brush marks the area to change, an eraser takes
 * paint away, «Отменить» undoes the last stroke, «Очистить» all of them. Mouse, pen and touch
 * alike (pointer events; the canvas takes no scrolling gestures).
 */
export function MaskEditor({ image, strokes, onChange, error }: MaskEditorProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tool, setTool] = useState<Stroke['tool']>('brush');
  const [share, setShare] = useState<number>(BRUSH_SIZES[1].share);
  /** The stroke being drawn: drawn live, added to `strokes` when the pointer lifts. */
  const drawing = useRef<Stroke | null>(null);
  const { width, height } = image;

  const redraw = (extra?: Stroke) => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx) drawOverlay(ctx, extra ? [...strokes, extra] : strokes);
  };
  // The strokes change from outside too (undo, clear, a new image).
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx) drawOverlay(ctx, strokes);
  }, [strokes, width, height]);

  const point = (event: PointerEvent<HTMLCanvasElement>) => toImagePoint(event.clientX, event.clientY, event.currentTarget.getBoundingClientRect(), width, height);
  const onDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0) return;
    // The stroke goes on when the pointer leaves the canvas (not every DOM has pointer capture).
    (event.currentTarget as Partial<Pick<HTMLCanvasElement, 'setPointerCapture'>>).setPointerCapture?.(event.pointerId);
    drawing.current = { tool, size: brushPixels(share, width, height), points: [point(event)] };
    redraw(drawing.current);
  };
  const onMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    drawing.current.points.push(point(event));
    redraw(drawing.current);
  };
  const onUp = () => {
    const stroke = drawing.current;
    drawing.current = null;
    if (stroke) onChange([...strokes, stroke]);
  };

  return (
    <div className={`gen-mask${error ? ' gen-mask--invalid' : ''}`}>
      <div className="gen-mask__toolbar" role="toolbar" aria-label="Маска">
        <div className="gen-seg" role="group" aria-label="Инструмент">
          <button type="button" className="gen-seg__btn" aria-pressed={tool === 'brush'} onClick={() => setTool('brush')}>
            Кисть
          </button>
          <button type="button" className="gen-seg__btn" aria-pressed={tool === 'eraser'} onClick={() => setTool('eraser')}>
            Ластик
          </button>
        </div>
        <div className="gen-seg" role="group" aria-label="Размер кисти">
          {BRUSH_SIZES.map((size) => (
            <button key={size.label} type="button" className="gen-seg__btn" aria-pressed={share === size.share} aria-label={`Размер ${size.label}`} onClick={() => setShare(size.share)}>
              {size.label}
            </button>
          ))}
        </div>
        <Button variant="ghost" disabled={strokes.length === 0} onClick={() => onChange(strokes.slice(0, -1))}>
          ↶ Отменить
        </Button>
        <Button variant="ghost" disabled={strokes.length === 0} onClick={() => onChange([])}>
          Очистить
        </Button>
      </div>
      <div className="gen-mask__stage" style={{ aspectRatio: width && height ? `${String(width)} / ${String(height)}` : undefined }}>
        {image.url && <img src={image.url} alt="Изображение для маски" draggable={false} />}
        <canvas
          ref={canvas}
          width={width || 1}
          height={height || 1}
          className={`gen-mask__canvas gen-mask__canvas--${tool}`}
          aria-label="Закрасьте кистью область, которую нужно изменить"
          role="img"
          onPointerDown={onDown}
          onPointerMove={onMove}
          onPointerUp={onUp}
          onPointerCancel={onUp}
        />
      </div>
      <p className="gen-mask__hint">Закрасьте кистью область, которую нужно изменить; остальное останется как есть.</p>
    </div>
  );
}
