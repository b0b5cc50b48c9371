import { UNKNOWN_ERROR_MESSAGE } from '@app/contracts/browser';
import { ApiError } from './api.ts';
import { errorMessages } from './errors.ts';

/** Messages per field, as the server's `text` object and schema issues give them. */
export type FieldErrors = Record<string, string[]>;

/** What a form shows after a failure: messages beside its own fields, the rest as a list above it. */
export interface FormErrors {
  fieldErrors: FieldErrors;
  formErrors: string[];
}

/**
 * Issues of a failed schema check as one message per field (the first path segment names the
 * field). Only the first issue counts: an empty password reads «Введите пароль», not that and
 * «too short» at once.
 */
export function issuesToFieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[String(issue.path[0] ?? 'form')] ??= [issue.message];
  return errors;
}

/** Splits messages per field: those of `fields` stay beside them, the others become the list. */
export function partitionFieldErrors(byField: FieldErrors, fields: readonly string[]): FormErrors {
  const fieldErrors: FieldErrors = {};
  const formErrors: string[] = [];
  for (const [field, messages] of Object.entries(byField)) {
    if (fields.includes(field)) fieldErrors[field] = messages;
    else formErrors.push(...messages);
  }
  return { fieldErrors, formErrors: [...new Set(formErrors)] };
}

/**
 * A failed call as a form shows it (seed §8): an object of messages goes beside the form's
 * `fields` (messages of other fields join the list); one message or a JSON list is the list.
 */
export function apiFormErrors(error: unknown, fields: readonly string[]): FormErrors {
  if (!(error instanceof ApiError)) return { fieldErrors: {}, formErrors: [UNKNOWN_ERROR_MESSAGE] };
  const byField = error.fields;
  if (Object.keys(byField).length === 0) return { fieldErrors: {}, formErrors: [...new Set(errorMessages(error.text))] };
  return partitionFieldErrors(byField, fields);
}
