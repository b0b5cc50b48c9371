import { useId, useState } from 'react';
import { GENERATION_TEXTS, failureReason, type Generation } from '@app/contracts/generation';
import { Button, MediaIcon, WordsIcon } from '@app/kit';
import { LazyMarkdown } from '@app/kit/lazy-markdown';
import { TEXTS, amountLabel, isActive, statusLabel } from './texts.ts';

export interface RunPanelProps {
  run: Generation;
  cancelling: boolean;
  onCancel: () => void;
  onAgain: () => void;
  onEdit: () => void;
  historyUrl: string;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A run on the product's screen: its progress while it goes, then the result with download and «Ещё раз», or why it failed. */
export function RunPanel({ run, cancelling, onCancel, onAgain, onEdit, historyUrl }: RunPanelProps) {
  const statusId = useId();
  const [copied, setCopied] = useState(false);
  const active = isActive(run);
  const progress = run.status === 'queued' ? 0 : run.progress;
  return (
    <section className={`gen-run gen-run--${run.status}`} aria-labelledby={statusId}>
      <header className="gen-run__head">
        <h2 id={statusId} className="gen-run__status" aria-live="polite">
          {statusLabel(run)}
        </h2>
        <span className="gen-run__cost">
          {run.cost.wallet === 'media' ? <MediaIcon title="" /> : <WordsIcon title="" />}
          {run.refunded ? 'Не списано' : `${active ? 'Резерв' : 'Списано'}: ${amountLabel(run.cost.wallet, run.cost.amount)}`}
        </span>
      </header>
      {active && (
        <div className="gen-run__progress">
          <div className="gen-progress" role="progressbar" aria-label="Ход генерации" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
            <div className={`gen-progress__bar${run.status === 'queued' ? ' gen-progress__bar--waiting' : ''}`} style={{ width: `${String(Math.max(progress, 4))}%` }} />
          </div>
          <p className="gen-run__note">
            {run.status === 'queued' ? 'Ждём свободную модель…' : 'Модель работает над результатом…'} {TEXTS.resultHint}
          </p>
          {run.status === 'running' && run.variant === 'video' && <p className="gen-run__note">{TEXTS.cancelRunning}</p>}
          {(run.status === 'queued' || (run.status === 'running' && run.variant === 'video')) && (
            <Button variant="secondary" busy={cancelling} onClick={onCancel}>
              {TEXTS.cancel}
            </Button>
          )}
        </div>
      )}
      {run.status === 'succeeded' && (
        <div className="gen-run__result">
          {run.outputs.map((output, index) => (
            <figure key={output.id} className="gen-output">
              {output.kind === 'video' ? (
                <video src={output.url} controls loop muted playsInline aria-label={`Результат ${String(index + 1)}`} />
              ) : (
                <a href={output.url} target="_blank" rel="noopener">
                  <img src={output.url} alt={`Результат ${String(index + 1)}: ${run.prompt}`} />
                </a>
              )}
              <figcaption>
                <a className="btn btn-secondary" href={output.download_url} download>
                  {TEXTS.download}
                </a>
              </figcaption>
            </figure>
          ))}
          {run.text !== null && (
            <div className="gen-text">
              <LazyMarkdown className="gen-text__body" text={run.text} />
              <Button
                variant="secondary"
                onClick={() => {
                  void copy(run.text ?? '').then(setCopied);
                }}
              >
                {copied ? TEXTS.copied : TEXTS.copy}
              </Button>
            </div>
          )}
        </div>
      )}
      {(run.status === 'failed' || run.status === 'cancelled') && (
        <div className="gen-run__failure" role={run.status === 'failed' ? 'alert' : undefined}>
          {run.status === 'failed' && <p className="gen-run__reason">{failureReason(run.error)}</p>}
          {run.refunded && <p className="gen-run__refund">{GENERATION_TEXTS.refunded}</p>}
        </div>
      )}
      {!active && (
        <div className="gen-run__actions">
          <Button onClick={onAgain}>{TEXTS.again}</Button>
          <Button variant="secondary" onClick={onEdit}>
            {TEXTS.edit}
          </Button>
          <a className="gen-run__history" href={historyUrl}>
            {TEXTS.history}
          </a>
        </div>
      )}
    </section>
  );
}
