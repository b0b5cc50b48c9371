import { useId } from 'react';
import type { Generation } from '@app/contracts/generation';
import { Button, LazyDialog, formatDate } from '@app/kit';
import { LazyMarkdown } from '@app/kit/lazy-markdown';
import type { OpenResult } from './types.ts';
import { costLabel } from './run-utils.ts';
import { KIND_TEXTS, TEXTS } from './texts.ts';

function Result({ run, output }: { run: Generation; output: Generation['outputs'][number] | undefined }) {
  if (!output) return <LazyMarkdown className="gen-viewer__text" text={run.text ?? ''} />;
  if (output.kind === 'video') return <video className="gen-viewer__media" src={output.url} controls autoPlay loop muted playsInline />;
  return <img className="gen-viewer__media" src={output.url} alt={run.prompt || run.product} />;
}

/**
 * A result full size (the kit's dialog, fetched on demand): the image, the video with controls or
 * the whole text, the prompt, and download or copy; several outputs are stepped through.
 */
export function RunViewer({ open, copied, onSelect, onClose, onCopy }: { open: OpenResult; copied: string; onSelect: (output: number) => void; onClose: () => void; onCopy: (run: Generation) => void }) {
  const { run } = open;
  const count = run.outputs.length;
  const index = Math.min(Math.max(open.output, 0), Math.max(count - 1, 0));
  const output = run.outputs[index];
  const describedBy = useId();
  const title = count > 1 ? `${run.product} · ${String(index + 1)} из ${String(count)}` : run.product;
  return (
    <LazyDialog
      title={title}
      className={`gen-viewer gen-viewer--${output ? output.kind : 'text'}`}
      describedBy={describedBy}
      onClose={onClose}
      footer={
        <>
          {count > 1 && (
            <span className="gen-viewer__steps">
              <Button variant="secondary" aria-label={TEXTS.previous} disabled={index === 0} onClick={() => onSelect(index - 1)}>
                ‹
              </Button>
              <Button variant="secondary" aria-label={TEXTS.next} disabled={index === count - 1} onClick={() => onSelect(index + 1)}>
                ›
              </Button>
            </span>
          )}
          {output ? (
            <a className="btn btn-primary" href={output.download_url} download>
              {TEXTS.download}
            </a>
          ) : (
            <Button onClick={() => onCopy(run)}>{copied}</Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            {TEXTS.close}
          </Button>
        </>
      }
    >
      <div className={`gen-viewer__stage gen-viewer__stage--${output ? output.kind : 'text'}`}>
        <Result run={run} output={output} />
      </div>
      <div className="gen-viewer__about" id={describedBy}>
        {run.prompt && (
          <p className="gen-viewer__prompt">
            <span className="gen-viewer__label">{TEXTS.prompt}:</span> {run.prompt}
          </p>
        )}
        <p className="gen-viewer__meta">
          {output ? KIND_TEXTS[output.kind].result : KIND_TEXTS.text.result} · {run.model} · {formatDate(run.created_at)} · {costLabel(run.cost)}
        </p>
      </div>
    </LazyDialog>
  );
}
