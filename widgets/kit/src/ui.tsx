import { useEffect, useId, useRef, type ButtonHTMLAttributes, type InputHTMLAttributes, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { useInertBackground } from './use-inert-background.ts';

export function Spinner({ label = 'Загрузка' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  busy?: boolean;
  block?: boolean;
  /** Looks disabled but stays clickable (to explain why). */
  looksDisabled?: boolean;
}

/** A button with a spinner while `busy`; busy buttons ignore clicks. */
export function Button({ variant = 'primary', busy = false, block = false, looksDisabled = false, className = '', children, disabled, type = 'button', ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, block ? 'btn-block' : '', looksDisabled ? 'is-disabled' : '', className].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled ?? busy} aria-busy={busy || undefined} aria-disabled={looksDisabled || undefined} {...rest}>
      {busy && <Spinner label="Подождите" />}
      <span className="btn__label">{children}</span>
    </button>
  );
}

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  errors?: readonly string[] | undefined;
  hint?: ReactNode;
  /** Extra classes of the input itself (`className` goes to the field around it). */
  inputClassName?: string;
}

/** A labelled input with its field errors under it. */
export function Field({ label, errors, hint, id, className = '', inputClassName = '', ...input }: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-errors`;
  const hintId = `${inputId}-hint`;
  const hasErrors = Boolean(errors?.length);
  const describedBy = hasErrors ? errorId : hint ? hintId : undefined;
  return (
    <div className={`field ${hasErrors ? 'field--invalid' : ''} ${className}`}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input id={inputId} className={`field__input ${inputClassName}`.trim()} aria-invalid={hasErrors || undefined} aria-describedby={describedBy} {...input} />
      {hint && !hasErrors && (
        <div className="field__hint" id={hintId}>
          {hint}
        </div>
      )}
      {hasErrors && (
        <ul className="field__errors" id={errorId}>
          {errors?.map((e) => <li key={e}>{e}</li>)}
        </ul>
      )}
    </div>
  );
}

export function Alert({ tone = 'error', children }: { tone?: 'error' | 'success' | 'info' | 'warning'; children: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** A list of messages (seed §8: JSON failures are shown as a list). */
export function ErrorList({ messages }: { messages: readonly string[] }) {
  if (!messages.length) return null;
  if (messages.length === 1) return <Alert>{messages[0]}</Alert>;
  return (
    <Alert>
      <ul className="alert__list">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </Alert>
  );
}

export function Card({ children, className = '', title }: { children: ReactNode; className?: string; title?: ReactNode }) {
  const titleId = useId();
  return (
    <section className={`card ${className}`} aria-labelledby={title ? titleId : undefined}>
      {title && (
        <h2 className="card__title" id={titleId}>
          {title}
        </h2>
      )}
      {children}
    </section>
  );
}

/** A modal window: focus moves in and comes back after, Escape closes, the page behind is inert. */
export function Modal({ title, children, onClose, footer }: { title: string; children?: ReactNode; onClose: () => void; footer: ReactNode }) {
  const titleId = useId();
  const backdrop = useRef<HTMLDivElement>(null);
  const ref = useRef<HTMLDivElement>(null);
  // The latest onClose, so a parent's re-render (a new arrow function) does not move the focus again.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);
  // Before the focus effect: its cleanup must run once the page is no longer inert, or focus cannot return.
  useInertBackground(backdrop);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('button:not(:disabled), [href], input')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);
  return (
    <div className="modal-backdrop" ref={backdrop} onClick={onClose}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref} onClick={(e) => e.stopPropagation()}>
        <h2 className="modal__title" id={titleId}>
          {title}
        </h2>
        {children && <div className="modal__body">{children}</div>}
        <div className="modal__footer">{footer}</div>
      </div>
    </div>
  );
}

/** Tabs as WAI-ARIA describes them: only the selected tab is in the Tab order; arrows, Home and End move between tabs. */
export function Tabs<T extends string>({ tabs, current, onChange, label }: { tabs: readonly { id: T; label: string }[]; current: T; onChange: (id: T) => void; label: string }) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === current);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const move = moves[e.key];
    if (move === undefined) return;
    e.preventDefault();
    const next = (move + tabs.length) % tabs.length;
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.id);
    buttons.current[next]?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab, i) => (
        <button
          key={tab.id}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          role="tab"
          className="tabs__tab"
          aria-selected={tab.id === current}
          tabIndex={tab.id === current ? 0 : -1}
          onClick={() => onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton" aria-busy="true" aria-label="Загрузка">
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="skeleton__line" />
      ))}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-state__title">{title}</p>
      {children}
    </div>
  );
}
