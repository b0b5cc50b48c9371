import type { ReactNode } from 'react';
import { Button } from '@app/kit';

/** A row being edited: its own key (rows move), whatever else it holds. */
export interface Row {
  key: string;
}

let counter = 0;
/** A key for a new row. */
export const rowKey = () => {
  counter += 1;
  return `row-${String(counter)}`;
};

export interface RowListProps<R extends Row> {
  /** The list's name (its region). */
  label: string;
  /** One row's name: «Поле 2». */
  rowLabel: (row: R, index: number) => string;
  rows: readonly R[];
  onChange: (rows: R[]) => void;
  /** A new row. */
  create: () => R;
  addLabel: string;
  /** At most this many rows. */
  max: number;
  empty: string;
  children: (row: R, update: (change: Partial<R>) => void, index: number) => ReactNode;
  /** Messages about the whole list (the server's). */
  errors?: readonly string[];
}

/** A list of rows edited in place: add, remove, move up and down. */
export function RowList<R extends Row>({ label, rowLabel, rows, onChange, create, addLabel, max, empty, children, errors = [] }: RowListProps<R>) {
  const move = (from: number, to: number) => {
    const next = [...rows];
    const [row] = next.splice(from, 1);
    if (row) next.splice(to, 0, row);
    onChange(next);
  };
  return (
    <div className="ai-rows" role="group" aria-label={label}>
      {rows.length === 0 && <p className="admin-muted">{empty}</p>}
      {rows.map((row, i) => {
        const name = rowLabel(row, i);
        return (
          <fieldset key={row.key} className="ai-row">
            <legend className="visually-hidden">{name}</legend>
            <div className="ai-row__head">
              <span className="ai-row__title" aria-hidden="true">
                {name}
              </span>
              <div className="ai-row__tools">
              <Button variant="ghost" aria-label={`${name}: выше`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                ↑
              </Button>
              <Button variant="ghost" aria-label={`${name}: ниже`} disabled={i === rows.length - 1} onClick={() => move(i, i + 1)}>
                ↓
              </Button>
              <Button variant="ghost" aria-label={`${name}: удалить`} onClick={() => onChange(rows.filter((r) => r.key !== row.key))}>
                ✕
              </Button>
              </div>
            </div>
            {children(row, (change) => onChange(rows.map((r) => (r.key === row.key ? { ...r, ...change } : r))), i)}
          </fieldset>
        );
      })}
      {errors.length > 0 && (
        <ul className="field__errors ai-rows__errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {rows.length < max && (
        <Button variant="secondary" onClick={() => onChange([...rows, create()])}>
          {addLabel}
        </Button>
      )}
    </div>
  );
}

/** A labelled input of a row (its error under it). */
export function RowInput({ id, label, value, onChange, error, hint, ...rest }: { id: string; label: string; value: string; onChange: (value: string) => void; error?: string | undefined; hint?: string; inputMode?: 'decimal' | 'numeric'; placeholder?: string; className?: string }) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''} ${rest.className ?? ''}`.trim()}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="field__input" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} inputMode={rest.inputMode} placeholder={rest.placeholder} />
      {error ? (
        <p className="field__errors" id={`${id}-error`}>
          {error}
        </p>
      ) : (
        hint && (
          <p className="field__hint" id={`${id}-hint`}>
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/** A labelled checkbox of a row. */
export function RowCheck({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="admin-check" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}

/** A number typed in a row: blank is null, a comma is a decimal point; NaN for anything else. */
export const numberOf = (text: string): number | null => {
  const t = text.replace(',', '.').replace(/\s/g, '');
  return t === '' ? null : Number(t);
};
