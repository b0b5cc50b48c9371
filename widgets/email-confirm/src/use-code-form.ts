import { useState, type SyntheticEvent } from 'react';
import { ConfirmEmailBodySchema, UNKNOWN_ERROR_MESSAGE } from '@app/contracts/browser';
import { ApiError, errorMessages } from '@app/kit';
import { normalizeCode } from './code.ts';

export type CodeValues = { code: string };

/**
 * The code form's state. The overlay is on every page an unconfirmed user opens, and its form is
 * one field: its state lives here rather than in react-hook-form (`@app/kit/forms`, 13 KB gz those
 * pages would load for it). It checks with the contract's schema and shows a failed call's
 * messages as every contract form does: the code's beside the field, the rest above the form.
 */
export interface CodeForm {
  code: string;
  /** What was typed, as digits only (at most six); the field's messages go until the next submit. */
  setCode: (value: string) => void;
  codeErrors: string[];
  formErrors: string[];
  busy: boolean;
  onSubmit: (event?: SyntheticEvent) => void;
  /** Empties the field and its messages (a new code was sent). */
  reset: () => void;
}

export interface CodeFormOptions {
  onSubmit: (values: CodeValues) => Promise<unknown>;
  /** Shown from the start (stories). */
  code?: string | undefined;
  errors?: Record<string, string[]> | undefined;
  formErrors?: string[] | undefined;
}

/** A failed call as the form shows it: messages about the code beside it, any other message above the form. */
function shownErrors(err: unknown): { code: string[]; form: string[] } {
  if (!(err instanceof ApiError)) return { code: [], form: [UNKNOWN_ERROR_MESSAGE] };
  const byField = err.fields;
  if (Object.keys(byField).length === 0) return { code: [], form: [...new Set(errorMessages(err.text))] };
  const { code = [], ...others } = byField;
  return { code, form: [...new Set(Object.values(others).flat())] };
}

export function useCodeForm(options: CodeFormOptions): CodeForm {
  const [code, setValue] = useState(options.code ?? '');
  const [codeErrors, setCodeErrors] = useState<string[]>(options.errors?.code ?? []);
  const [formErrors, setFormErrors] = useState<string[]>(options.formErrors ?? []);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const checked = ConfirmEmailBodySchema.safeParse({ code });
    if (!checked.success) {
      // The schema's first message, as the server would give it.
      setCodeErrors(checked.error.issues.slice(0, 1).map((issue) => issue.message));
      setFormErrors([]);
      return;
    }
    setFormErrors([]);
    setBusy(true);
    try {
      await options.onSubmit(checked.data);
    } catch (err) {
      const shown = shownErrors(err);
      setCodeErrors(shown.code);
      setFormErrors(shown.form);
      if (!(err instanceof ApiError)) console.error(err);
    } finally {
      setBusy(false);
    }
  };

  return {
    code,
    setCode: (value) => {
      setValue(normalizeCode(value));
      setCodeErrors([]);
    },
    codeErrors,
    formErrors,
    busy,
    onSubmit: (event) => {
      event?.preventDefault();
      if (!busy) void submit();
    },
    reset: () => {
      setValue('');
      setCodeErrors([]);
      setFormErrors([]);
    },
  };
}
