import { useId, useState, type ReactNode, type SyntheticEvent } from 'react';
import { checkInput, type AdminInputSchema } from '@app/contracts/admin';
import { Alert, ApiError, Button, failureMessage } from '@app/kit';
import { useLastAction } from './last-action.tsx';

/**
 * One field of an admin editor. What a field must hold is the contract's (the editor checks its
 * values with the body schema the server checks with); `required` only marks the label, and
 * `nullable` sends an emptied field as null (a cleared optional value) instead of leaving it out.
 */
export type FieldSpec = (
  | { name: string; label: string; kind: 'text' | 'textarea'; required?: boolean; nullable?: boolean; maxLength?: number; hint?: string; placeholder?: string }
  | { name: string; label: string; kind: 'number'; required?: boolean; nullable?: boolean; hint?: string; placeholder?: string }
  | { name: string; label: string; kind: 'checkbox'; hint?: string }
  /** `numeric`: the options' values are numbers (ids, types) and are sent as numbers. */
  | { name: string; label: string; kind: 'select'; options: readonly { value: string; label: string }[]; numeric?: boolean; required?: boolean; nullable?: boolean; hint?: string }
  /** A list of strings, one a line (a plan's description lines). */
  | { name: string; label: string; kind: 'lines'; hint?: string; placeholder?: string }
) & {
  /** Shown only while the form's values make it mean something (a plan's trial fields, for a plan with a trial); its value is sent all the same. */
  shownWhen?: (values: Values) => boolean;
};

export type Value = string | number | boolean | string[] | null | undefined;
export type Values = Record<string, Value>;

/** What the form holds for a field, as the server takes it: numbers as numbers, lines without blanks; an empty field is left out (or null when `nullable`). */
export function valueOf(spec: FieldSpec, raw: string | boolean | undefined): Value {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const empty = 'nullable' in spec && spec.nullable ? null : undefined;
  switch (spec.kind) {
    case 'number':
      return text === '' ? empty : Number(text.replace(',', '.').replace(/\s/g, ''));
    case 'checkbox':
      return raw === true;
    case 'lines':
      return text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    case 'select':
      return text === '' ? empty : spec.numeric ? Number(text) : text;
    default:
      return text === '' && empty === null ? null : text;
  }
}

/** The field's text in the form from a stored value. */
function toDraft(spec: FieldSpec, value: Value): string | boolean {
  if (spec.kind === 'checkbox') return value === true;
  if (spec.kind === 'lines') return Array.isArray(value) ? value.join('\n') : '';
  return value === null || value === undefined ? '' : String(value);
}

/** Messages by the editor's fields: a message for a field the editor does not show joins the form's own (`''`). */
function byField(errors: Record<string, string>, fields: readonly FieldSpec[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const name = fields.some((f) => f.name === key) ? key : '';
    out[name] ??= message;
  }
  return out;
}

/** The messages of the server's `{field: [messages]}`, the first of each (`lines.2` counts for `lines`). */
export function serverFieldErrors(err: ApiError, fields: readonly FieldSpec[]): Record<string, string> {
  return byField(Object.fromEntries(Object.entries(err.fields).flatMap(([key, messages]) => (messages[0] ? [[key.split('.')[0] ?? '', messages[0]]] : []))), fields);
}

export interface EditorProps {
  label: string;
  /** The body schema of the call the editor makes: values are checked with it before sending, as the server will check them. */
  schema: AdminInputSchema;
  fields: readonly FieldSpec[];
  initial: Values;
  submitLabel: string;
  /** Values joined to the form's before the check (a request id, lists edited beside the form). */
  extra?: Record<string, unknown>;
  /** Runs first at a submit: a message stops it there (lists beside the form that mark their own rows). */
  precheck?: () => string | null;
  /** Sends the body the schema made of the values; an ApiError's field messages show by their fields, others above the button. */
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
  /** Beside the fields (a live preview). */
  aside?: (values: Values) => ReactNode;
  /**
   * What the last submit did (or what the screen opened with: a record just created). It shows
   * only while nothing happened since: a change of the form, another submit, an error or another
   * action of the screen (see `last-action.tsx`) takes it away.
   */
  done?: string | null;
  /** After a successful submit the form starts again from `initial` (a form that adds, such as a balance adjustment). */
  clearOnSuccess?: boolean;
  /** A field was edited: other fields that follow it (a model's connection follows its kind), as the form holds them. */
  onEdit?: (name: string, draft: Readonly<Record<string, string | boolean>>) => Record<string, string | boolean> | null;
}

/** An admin editor: fields from a spec, checked before sending, the server's field errors shown by their fields. */
export function Editor({ label, schema, fields, initial, submitLabel, extra, precheck, onSubmit, aside, done, clearOnSuccess = false, onEdit }: EditorProps) {
  const id = useId();
  const fresh = () => Object.fromEntries(fields.map((f) => [f.name, toDraft(f, initial[f.name])]));
  const [draft, setDraft] = useState<Record<string, string | boolean>>(fresh);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const actions = useLastAction();
  // The action `done` reports: 0, what the screen opened with, until something happens.
  const [doneBy, setDoneBy] = useState(0);
  const values: Values = Object.fromEntries(fields.map((f) => [f.name, valueOf(f, draft[f.name])]));
  // A message for a field not shown is the form's own.
  const shown = fields.filter((f) => f.shownWhen?.(values) ?? true);
  const edit = (name: string, value: string | boolean) => {
    setDraft((d) => {
      const next = { ...d, [name]: value };
      return { ...next, ...onEdit?.(name, next) };
    });
    // An edit is a new action: what the last one said no longer describes the form.
    if (doneBy === actions.last || failure !== null) actions.begin();
    setFailure(null);
    setErrors((e) => (e[name] ? Object.fromEntries(Object.entries(e).filter(([key]) => key !== name)) : e));
  };
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const action = actions.begin();
    setFailure(null);
    const stop = precheck?.() ?? null;
    if (stop) {
      setFailure(stop);
      return;
    }
    const checked = checkInput(schema, Object.fromEntries(Object.entries({ ...values, ...extra }).filter(([, v]) => v !== undefined)));
    if (!checked.ok) {
      const found = byField(checked.errors, shown);
      setErrors(found);
      if (found['']) setFailure(found['']);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(checked.data as Record<string, unknown>);
      setDoneBy(action);
      if (clearOnSuccess) setDraft(fresh());
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) {
        const found = serverFieldErrors(err, shown);
        setErrors(found);
        if (found['']) setFailure(found['']);
      } else setFailure(failureMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={`admin-editor${aside ? ' admin-editor--aside' : ''}`}>
      <form className="card admin-form admin-editor__form" aria-label={label} noValidate onSubmit={(e) => void submit(e)}>
        {shown.map((f) => {
          const fieldId = `${id}-${f.name}`;
          const error = errors[f.name];
          const described = error ? `${fieldId}-error` : f.hint ? `${fieldId}-hint` : undefined;
          const common = { id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': described } as const;
          const text = typeof draft[f.name] === 'string' ? (draft[f.name] as string) : '';
          const set = (v: string | boolean) => edit(f.name, v);
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
                <input {...common} className="field__input" type="text" inputMode={f.kind === 'number' ? 'decimal' : undefined} maxLength={'maxLength' in f ? f.maxLength : undefined} value={text} placeholder={'placeholder' in f ? f.placeholder : undefined} onChange={(e) => set(e.target.value)} />
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
        {done && doneBy === actions.last && !failure && Object.keys(errors).length === 0 && (
          <Alert tone="success">{done}</Alert>
        )}
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </form>
      {aside && <div className="admin-editor__aside">{aside(values)}</div>}
    </div>
  );
}
