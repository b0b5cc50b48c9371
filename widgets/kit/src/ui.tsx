import { useId, type ButtonHTMLAttributes, type ComponentPropsWithRef, type ReactNode } from 'react';

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

export interface FieldProps extends ComponentPropsWithRef<'input'> {
  label: string;
  errors?: readonly string[] | undefined;
  hint?: ReactNode;
  /** Extra classes of the input itself (`className` goes to the field around it). */
  inputClassName?: string;
}

/** A labelled input with its field errors under it (`ref` reaches the input: react-hook-form's `register` works). */
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

/**
 * An email that may have to wrap: the line breaks before its «@» (then, only if a part alone
 * is wider than the line, inside it), never at an arbitrary letter.
 */
export function EmailText({ email, className = '' }: { email: string; className?: string }) {
  const at = email.indexOf('@');
  return (
    <span className={`email-text ${className}`.trim()}>
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}
