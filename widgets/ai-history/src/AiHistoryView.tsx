import { useId, useRef } from 'react';
import { GENERATION_TEXTS, type Generation } from '@app/contracts/generation';
import { Alert, Button, EmptyState, LoadError, MediaIcon, Spinner, WordsIcon, formatDate, preloadDialogKit, type LoadState } from '@app/kit';
import { Pagination } from '@app/kit/pagination';
import { LazyMarkdown } from '@app/kit/lazy-markdown';
import { RunViewer } from './RunViewer.tsx';
import { clampProgress, costLabel, createUrl, failureReason, isActive, statusLabel } from './run-utils.ts';
import { HISTORY_TABS, KIND_TEXTS, TEXTS, type HistoryKind } from './texts.ts';
import type { CopyNote, OpenResult } from './types.ts';

export interface AiHistoryViewProps {
  kind: HistoryKind;
  productsUrl: string;
  page: number;
  /** Page count as last known: the pagination stays in place while a page loads. */
  lastPage: number;
  state: LoadState<Generation[]>;
  open: OpenResult | null;
  /** Runs whose cancel is under way. */
  cancelling: readonly number[];
  /** A refused cancel (or another failure) of a run, shown on its card. */
  cardErrors: Readonly<Record<number, string>>;
  copied: CopyNote | null;
  onPageChange: (page: number) => void;
  onRetry: () => void;
  onCancel: (run: Generation) => void;
  onOpen: (open: OpenResult) => void;
  onClose: () => void;
  onCopy: (run: Generation) => void;
}

const BADGE_TONES: Record<Generation['status'], string> = { queued: 'muted', running: 'info', succeeded: 'success', failed: 'danger', cancelled: 'muted' };

const copyText = (note: CopyNote | null, id: number) => (note?.id === id ? (note.ok ? TEXTS.copied : TEXTS.copyFailed) : TEXTS.copy);

/** What a run cost; a failed or cancelled one cost nothing (its held price came back). */
function Cost({ run }: { run: Generation }) {
  if (run.refunded) return <span className="gen-card__cost gen-card__cost--free">{TEXTS.notCharged}</span>;
  return (
    <span className="token-amount gen-card__cost">
      {run.cost.wallet === 'media' ? <MediaIcon /> : <WordsIcon />}
      {costLabel(run.cost)}
    </span>
  );
}

/** A run not (or never) finished with a result: what the preview area says instead. */
function Placeholder({ run }: { run: Generation }) {
  if (isActive(run)) {
    const progress = clampProgress(run.progress);
    return (
      <div className="gen-card__placeholder gen-card__placeholder--active">
        <Spinner label={statusLabel(run)} />
        <span className="gen-card__placeholder-text">{run.status === 'queued' ? TEXTS.queuedHint : TEXTS.runningHint}</span>
        {run.status === 'running' && progress > 0 && (
          <span className="gen-progress" role="progressbar" aria-label="Готовность" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
            <span className="gen-progress__bar" style={{ width: `${String(progress)}%` }} />
          </span>
        )}
      </div>
    );
  }
  return (
    <div className={`gen-card__placeholder gen-card__placeholder--${run.status}`} aria-hidden="true">
      <span className="gen-card__placeholder-icon">{run.status === 'failed' ? '!' : '×'}</span>
    </div>
  );
}

function Preview({ run, onOpen }: { run: Generation; onOpen: AiHistoryViewProps['onOpen'] }) {
  const first = run.outputs[0];
  if (run.status === 'succeeded' && run.text !== null && !first) {
    // The text's beginning as the full view draws it (Markdown); the button over it opens the whole text.
    return (
      <div className="gen-card__excerpt">
        <div className="gen-card__excerpt-clamp" inert>
          <LazyMarkdown text={run.text} />
        </div>
        <button type="button" className="gen-card__excerpt-open" onClick={() => onOpen({ run, output: 0 })} onPointerEnter={preloadDialogKit} onFocus={preloadDialogKit} aria-label={`${TEXTS.open}: ${run.product}`} />
      </div>
    );
  }
  if (run.status !== 'succeeded' || !first) return <Placeholder run={run} />;
  const more = run.outputs.length - 1;
  return (
    <button type="button" className="gen-card__media" onClick={() => onOpen({ run, output: 0 })} onPointerEnter={preloadDialogKit} onFocus={preloadDialogKit} aria-label={`${TEXTS.open} ${KIND_TEXTS[first.kind].result.toLowerCase()}: ${run.prompt || run.product}`}>
      {first.kind === 'video' ? (
        <>
          <video src={first.url} muted playsInline preload="metadata" tabIndex={-1} />
          <span className="gen-card__play" aria-hidden="true" />
        </>
      ) : (
        <img src={first.url} alt="" loading="lazy" decoding="async" />
      )}
      {more > 0 && <span className="gen-card__count">+{more}</span>}
    </button>
  );
}

function RunCard({ run, cancelling, error, copied, onCancel, onOpen, onCopy }: { run: Generation; cancelling: boolean; error: string | undefined; copied: CopyNote | null } & Pick<AiHistoryViewProps, 'onCancel' | 'onOpen' | 'onCopy'>) {
  const titleId = useId();
  const first = run.outputs[0];
  return (
    <article className={`gen-card gen-card--${run.status}`} aria-labelledby={titleId}>
      <Preview run={run} onOpen={onOpen} />
      <div className="gen-card__body">
        <div className="gen-card__top">
          <h2 className="gen-card__product" id={titleId}>
            {run.product}
          </h2>
          <span className={`status-badge status-badge--${BADGE_TONES[run.status]}`}>{statusLabel(run)}</span>
        </div>
        {run.prompt && (
          <p className="gen-card__prompt" title={run.prompt}>
            {run.prompt}
          </p>
        )}
        {run.status === 'failed' && <p className="gen-card__error">{failureReason(run)}</p>}
        {run.status === 'cancelled' && <p className="gen-card__note">{TEXTS.cancelled}</p>}
        {run.refunded && <p className="gen-card__refund">{GENERATION_TEXTS.refunded}</p>}
        <div className="gen-card__meta">
          <time dateTime={run.created_at}>{formatDate(run.created_at)}</time>
          <Cost run={run} />
        </div>
        {error && <Alert>{error}</Alert>}
        {(run.status === 'queued' || run.status === 'succeeded') && (
          <div className="gen-card__actions">
            {run.status === 'queued' && (
              <Button variant="secondary" busy={cancelling} onClick={() => onCancel(run)}>
                {TEXTS.cancel}
              </Button>
            )}
            {run.status === 'succeeded' && first && (
              <a className="btn btn-secondary" href={first.download_url} download>
                {TEXTS.download}
              </a>
            )}
            {run.status === 'succeeded' && run.text !== null && !first && (
              <>
                <Button variant="secondary" onClick={() => onCopy(run)}>
                  {copyText(copied, run.id)}
                </Button>
                <Button variant="ghost" onClick={() => onOpen({ run, output: 0 })} onPointerEnter={preloadDialogKit} onFocus={preloadDialogKit}>
                  {TEXTS.open}
                </Button>
              </>
            )}
          </div>
        )}
      </div>
    </article>
  );
}

function SkeletonGrid() {
  return (
    <ul className="gen-grid" aria-busy="true" aria-label="Загрузка">
      {Array.from({ length: 6 }, (_, i) => (
        <li key={i} className="gen-card gen-card--skeleton" aria-hidden="true">
          <div className="gen-card__media skeleton__line" />
          <div className="gen-card__body skeleton">
            <div className="skeleton__line" />
            <div className="skeleton__line" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The history of a user's runs of one kind (every state from props): the kinds as links, the
 * grid of cards (newest first) with live status, cancel of a queued run, download and copy,
 * the full view of a result, pages of 24.
 */
export function AiHistoryView({ kind, productsUrl, page, lastPage, state, open, cancelling, cardErrors, copied, onPageChange, onRetry, onCancel, onOpen, onClose, onCopy }: AiHistoryViewProps) {
  const rootRef = useRef<HTMLElement>(null);
  const titleId = useId();
  const texts = KIND_TEXTS[kind];
  const changePage = (next: number) => {
    onPageChange(next);
    const root = rootRef.current;
    // jsdom has no scrollIntoView.
    if (root && 'scrollIntoView' in root) root.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  return (
    <section className="gen-history" ref={rootRef} aria-labelledby={titleId}>
      <div className="gen-history__head">
        <h1 id={titleId}>{TEXTS.title}</h1>
        <a className="btn btn-primary gen-history__create" href={createUrl(productsUrl, kind)}>
          <span aria-hidden="true">+</span> {texts.create}
        </a>
      </div>
      <nav className="tabs gen-history__tabs" aria-label={TEXTS.tabs}>
        {HISTORY_TABS.map((tab) => (
          <a key={tab.kind} className="tabs__tab" href={tab.href} aria-current={tab.kind === kind ? 'page' : undefined}>
            {tab.label}
          </a>
        ))}
      </nav>
      {state.status === 'loading' && <SkeletonGrid />}
      {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
      {state.status === 'ready' && state.data.length === 0 && (
        <div className="card gen-history__empty">
          <EmptyState title={texts.emptyTitle}>
            <p>{texts.emptyText}</p>
            <a className="btn btn-primary" href={createUrl(productsUrl, kind)}>
              {texts.create}
            </a>
          </EmptyState>
        </div>
      )}
      {state.status === 'ready' && state.data.length > 0 && (
        <ul className={`gen-grid gen-grid--${kind}`}>
          {state.data.map((run) => (
            <li key={run.id}>
              <RunCard run={run} cancelling={cancelling.includes(run.id)} error={cardErrors[run.id]} copied={copied} onCancel={onCancel} onOpen={onOpen} onCopy={onCopy} />
            </li>
          ))}
        </ul>
      )}
      {state.status !== 'error' && <Pagination page={page} lastPage={lastPage} onChange={changePage} disabled={state.status === 'loading'} />}
      {open && <RunViewer open={open} copied={copyText(copied, open.run.id)} onSelect={(output) => onOpen({ run: open.run, output })} onClose={onClose} onCopy={onCopy} />}
    </section>
  );
}
