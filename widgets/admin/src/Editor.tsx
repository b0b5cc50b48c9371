import { useId, useState, type ReactNode, type SyntheticEvent } from 'react';
import { Alert, ApiError, Button, failureMessage } from '@app/kit';

/** One field of an admin editor. */
export type FieldSpec =
  | { name: string; label: string; kind: 'text' | 'textarea'; required?: boolean; maxLength?: number; hint?: string; placeholder?: string }
  | { name: string; label: string; kind: 'number'; required?: boolean; min?: number; max?: number; step?: number; hint?: string }
  | { name: string; label: string; kind: 'checkbox'; hint?: string }
  | { name: string; label: string; kind: 'select'; options: readonly { value: string; label: string }[]; required?: boolean; hint?: string }
  /** A list of strings, one a line (a plan's description lines). */
  | { name: string; label: string; kind: 'lines'; hint?: string; placeholder?: string };

export type Values = Record<string, string | number | boolean | string[] | null>;

/** The messages of the server's `{field: [messages]}` by field, the first of each (`lines.2` counts for `lines`). */
export function serverFieldErrors(err: ApiError, fields: readonly FieldSpec[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(err.fields)) {
    const name = fields.find((f) => key === f.name || key.startsWith(`${f.name}.`))?.name ?? '';
    if (messages[0] && !out[name]) out[name] = messages[0];
  }
  return out;
}

/** What the form holds for a field, as the server takes it (numbers as numbers, lines without blanks, empty optional text as null). */
export function valueOf(spec: FieldSpec, raw: string | boolean | undefined): Values[string] {
  const text = typeof raw === 'string' ? raw : '';
  switch (spec.kind) {
    case 'number': {
      const number = text.replace(',', '.').trim();
      return number === '' ? null : Number(number);
    }
    case 'checkbox':
      return raw === true;
    case 'lines':
      return text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    default: {
      const trimmed = text.trim();
      return trimmed === '' && !('required' in spec && spec.required) ? null : trimmed;
    }
  }
}

/** The field's text in the form from a stored value. */
function toDraft(spec: FieldSpec, value: Values[string] | undefined): string | boolean {
  if (spec.kind === 'checkbox') return value === true;
  if (spec.kind === 'lines') return Array.isArray(value) ? value.join('\n') : '';
  return value === null || value === undefined ? '' : String(value);
}

function check(spec: FieldSpec, value: Values[string]): string | null {
  if ('required' in spec && spec.required && (value === null || value === '')) return 'Заполните поле';
  if (spec.kind === 'number' && value !== null) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'Введите число';
    if (spec.min !== undefined && value < spec.min) return `Не меньше ${String(spec.min)}`;
    if (spec.max !== undefined && value > spec.max) return `Не больше ${String(spec.max)}`;
  }
  if ((spec.kind === 'text' || spec.kind === 'textarea') && spec.maxLength && typeof value === 'string' && value.length > spec.maxLength) return `Не длиннее ${String(spec.maxLength)} символов`;
  return null;
}

export interface EditorProps {
  label: string;
  fields: readonly FieldSpec[];
  initial: Partial<Values>;
  submitLabel: string;
  /** Sends the values; an ApiError's field messages show by their fields, others above the button. */
  onSubmit: (values: Values) => Promise<void>;
  /** Beside the fields (a live preview). */
  aside?: (values: Values) => ReactNode;
  done?: string | null;
}

/** An admin editor: fields from a spec, checked before sending, the server's field errors shown by their fields. */
export function Editor({ label, fields, initial, submitLabel, onSubmit, aside, done }: EditorProps) {
  const id = useId();
  const [draft, setDraft] = useState<Record<string, string | boolean>>(() => Object.fromEntries(fields.map((f) => [f.name, toDraft(f, initial[f.name])])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const values: Values = Object.fromEntries(fields.map((f) => [f.name, valueOf(f, draft[f.name])]));
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const found = Object.fromEntries(fields.flatMap((f) => {
      const problem = check(f, values[f.name] ?? null);
      return problem ? [[f.name, problem]] : [];
    }));
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) {
        const byField = serverFieldErrors(err, fields);
        setErrors(byField);
        if (byField['']) setFailure(byField['']);
      } else setFailure(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={`admin-editor${aside ? ' admin-editor--aside' : ''}`}>
      <form className="card admin-form admin-editor__form" aria-label={label} noValidate onSubmit={(e) => void submit(e)}>
        {fields.map((f) => {
          const fieldId = `${id}-${f.name}`;
          const error = errors[f.name];
          const described = error ? `${fieldId}-error` : f.hint ? `${fieldId}-hint` : undefined;
          const common = { id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': described } as const;
          const text = typeof draft[f.name] === 'string' ? (draft[f.name] as string) : '';
          const set = (v: string | boolean) => setDraft((d) => ({ ...d, [f.name]: v }));
          return (
            <div key={f.name} className={`field${error ? ' field--invalid' : ''}${f.kind === 'checkbox' ? ' field--checkbox' : ''}`}>
              {f.kind === 'checkbox' ? (
                <label className="admin-check" htmlFor={fieldId}>
                  <input {...common} type="checkbox" checked={draft[f.name] === true} onChange={(e) => set(e.target.checked)} /> {f.label}
                </label>
              ) : (
                <label className="field__label" htmlFor={fieldId}>
                  {f.label}
                  {'required' in f && f.required && <span aria-hidden="true"> *</span>}
                </label>
              )}
              {(f.kind === 'text' || f.kind === 'number') && (
                <input {...common} className="field__input" type="text" inputMode={f.kind === 'number' ? 'decimal' : undefined} value={text} placeholder={'placeholder' in f ? f.placeholder : undefined} onChange={(e) => set(e.target.value)} />
              )}
              {(f.kind === 'textarea' || f.kind === 'lines') && <textarea {...common} className="field__input" rows={f.kind === 'lines' ? 5 : 3} value={text} placeholder={'placeholder' in f ? f.placeholder : undefined} onChange={(e) => set(e.target.value)} />}
              {f.kind === 'select' && (
                <select {...common} className="field__input" value={text} onChange={(e) => set(e.target.value)}>
                  {!f.required && <option value="">—</option>}
                  {f.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              )}
              {error ? (
                <p className="field__errors" id={`${fieldId}-error`}>
                  {error}
                </p>
              ) : (
                f.hint && (
                  <p className="field__hint" id={`${fieldId}-hint`}>
                    {f.hint}
                  </p>
                )
              )}
            </div>
          );
        })}
        {failure && <Alert>{failure}</Alert>}
        {done && <Alert tone="success">{done}</Alert>}
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </form>
      {aside && <div className="admin-editor__aside">{aside(values)}</div>}
    </div>
  );
}
