import { useId, useRef, useState, type DragEvent } from 'react';
import { GENERATION_IMAGE_MAX_BYTES } from '@app/contracts/generation';
import { Button } from '@app/kit';
import { TEXTS } from './texts.ts';

/** An image the user picked, with its preview address and its size in pixels (0 until known). */
export interface PickedImage {
  file: File;
  url: string;
  width: number;
  height: number;
}

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** Why a file cannot be sent, or null. */
export function imageProblem(file: File): string | null {
  if (!TYPES.includes(file.type)) return TEXTS.imageType;
  if (file.size > GENERATION_IMAGE_MAX_BYTES) return TEXTS.imageTooBig;
  return null;
}

const objectUrl = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');

/** Reads an image's size in pixels; rejects when the browser cannot open it. */
export function readImage(file: File): Promise<PickedImage> {
  const url = objectUrl(file);
  return new Promise((resolve, reject) => {
    if (!url || typeof Image === 'undefined') {
      resolve({ file, url, width: 0, height: 0 });
      return;
    }
    const img = new Image();
    img.onload = () => resolve({ file, url, width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error(TEXTS.imageBroken));
    };
    img.src = url;
  });
}

export interface ImagePickerProps {
  label: string;
  required: boolean;
  image: PickedImage | null;
  error: string | null;
  onPick: (file: File) => void;
  onRemove: () => void;
  /** Hides the preview (the mask editor shows the image itself). */
  hidePreview?: boolean;
}

/** Picks one image by button or drop; shows its name and preview with «Заменить» and «Убрать». */
export function ImagePicker({ label, required, image, error, onPick, onRemove, hidePreview = false }: ImagePickerProps) {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onPick(file);
  };
  return (
    <div className={`field gen-image${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {image && !hidePreview && (
        <div className="gen-image__preview">
          {image.url && <img src={image.url} alt="Выбранное изображение" />}
        </div>
      )}
      {image ? (
        <div className="gen-image__picked">
          <span className="gen-image__name" title={image.file.name}>
            {image.file.name}
          </span>
          <Button variant="ghost" onClick={() => input.current?.click()}>
            Заменить
          </Button>
          <Button variant="ghost" onClick={onRemove}>
            Убрать
          </Button>
        </div>
      ) : (
        <div
          className={`gen-drop${over ? ' gen-drop--over' : ''}${error ? ' gen-drop--error' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <span className="gen-drop__icon" aria-hidden="true">
            ⇪
          </span>
          <span>Перетащите изображение сюда или</span>
          <Button variant="secondary" onClick={() => input.current?.click()}>
            Выбрать файл
          </Button>
          <span className="gen-drop__hint">PNG, JPEG или WebP, до 15 МБ</span>
        </div>
      )}
      <input
        ref={input}
        id={inputId}
        className="visually-hidden"
        type="file"
        accept={TYPES.join(',')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onPick(file);
        }}
      />
      {error && (
        <p className="field__errors" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
