import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { useForm, type FieldErrors as RhfFieldErrors, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { safeParseAsync, type $ZodType, type input, type output } from 'zod/v4/core';
import { ApiError } from './api.ts';
import { apiFormErrors, type FieldErrors } from './form-errors.ts';
import { ErrorList, Field, type FieldProps } from './ui.tsx';

export * from './form-errors.ts';

/** A form declared from a contract's schema: react-hook-form's state plus the messages shown above the fields. */
export interface ContractForm<V extends FieldValues, Out = V> {
  form: UseFormReturn<V, unknown, Out>;
  /** Messages that belong to no visible field (the server's plain `text`, a hidden field's error). */
  formErrors: string[];
  /** Submitting, or submitted and waiting for what follows (`keepBusyAfterSuccess`). */
  busy: boolean;
  /** The form's `onSubmit`. */
  onSubmit: (event?: SyntheticEvent) => void;
}

export interface ContractFormOptions<S extends $ZodType> {
  defaultValues: input<S>;
  /** Names of the fields the form shows: errors of other fields join `formErrors`. Default: the keys of `defaultValues`. */
  fields?: readonly string[];
  /** Sends the checked values (usually a route mutation's `mutateAsync`); a thrown `ApiError` is shown on the form. */
  onSubmit: (values: output<S>) => Promise<unknown>;
  /** Stay busy after a success (the page is about to navigate away). */
  keepBusyAfterSuccess?: boolean;
  /** Errors shown from the start, as the server's `{field: [messages]}` (stories show every state with these). */
  errors?: FieldErrors;
  formErrors?: string[];
}

/**
 * react-hook-form's resolver from a contract's schema: the values the schema outputs, or the
 * first message of each field (an empty password reads «Введите пароль», not that and «too
 * short» at once). Nested fields are named by their first segment, as the server's
 * `{field: [messages]}` names them.
 */
export function contractResolver<S extends $ZodType>(schema: S): Resolver<input<S> & FieldValues, unknown, output<S>> {
  return async (values) => {
    const result = await safeParseAsync(schema, values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'root')] ??= { type: issue.code, message: issue.message };
    return { values: {}, errors: errors as RhfFieldErrors<input<S> & FieldValues> };
  };
}

const toRhfErrors = (errors: FieldErrors) => Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, { type: 'server', message: messages[0], types: Object.fromEntries(messages.map((m, i) => [`server${String(i)}`, m])) }]));

/**
 * Every form is declared this way: `useContractForm(LoginBodySchema, { defaultValues, onSubmit })`.
 * Values are checked in the browser with the contract's schema (the same one the server checks
 * with, so the Russian messages are the server's); a failed call's per-field messages
 * (`{field: [messages]}`, seed §8) are set on those fields, the rest shown above the form.
 */
export function useContractForm<S extends $ZodType>(schema: S, options: ContractFormOptions<S>): ContractForm<input<S> & FieldValues, output<S>> {
  type V = input<S> & FieldValues;
  const fields = options.fields ?? Object.keys(options.defaultValues as object);
  const [formErrors, setFormErrors] = useState<string[]>(options.formErrors ?? []);
  const [succeeded, setSucceeded] = useState(false);
  // Fixed at the first render: react-hook-form applies `errors` again whenever its identity changes.
  const [initialErrors] = useState(() => (options.errors ? (toRhfErrors(options.errors) as RhfFieldErrors<V>) : undefined));
  const form = useForm<V, unknown, output<S>>({
    resolver: contractResolver(schema),
    defaultValues: options.defaultValues as never,
    errors: initialErrors,
    mode: 'onSubmit',
    // A field's message goes away as the user edits it (FormField clears it) and comes back, if still due, at the next submit.
    reValidateMode: 'onSubmit',
    criteriaMode: 'firstError',
  });

  const onValid = async (values: output<S>) => {
    setFormErrors([]);
    try {
      await options.onSubmit(values);
      if (options.keepBusyAfterSuccess) setSucceeded(true);
    } catch (err) {
      const shown = apiFormErrors(err, fields);
      for (const [field, messages] of Object.entries(shown.fieldErrors)) {
        form.setError(field as Path<V>, { type: 'server', message: messages[0], types: Object.fromEntries(messages.map((m, i) => [`server${String(i)}`, m])) });
      }
      setFormErrors(shown.formErrors);
      if (!(err instanceof ApiError)) console.error(err);
    }
  };
  const onInvalid = (errors: RhfFieldErrors<V>) => {
    const hidden = Object.entries(errors)
      .filter(([field]) => !fields.includes(field))
      .map(([, error]) => (error as { message?: unknown } | undefined)?.message)
      .filter((m): m is string => typeof m === 'string');
    setFormErrors([...new Set(hidden)]);
  };
  const submit = form.handleSubmit(onValid, onInvalid);
  return {
    form,
    formErrors,
    busy: form.formState.isSubmitting || succeeded,
    onSubmit: (event) => {
      event?.preventDefault();
      if (form.formState.isSubmitting || succeeded) return;
      void submit();
    },
  };
}

/** Messages of one field: every server message, or the schema's first. */
export function fieldMessages<V extends FieldValues>(form: UseFormReturn<V, unknown, unknown>, name: Path<V>): string[] {
  const error = form.getFieldState(name, form.formState).error;
  if (!error) return [];
  const types = error.types ? Object.values(error.types).filter((m): m is string => typeof m === 'string') : [];
  return types.length ? types : typeof error.message === 'string' ? [error.message] : [];
}

/** The kit's `Field` bound to a form field: registered, with its messages under it. */
export function FormField<V extends FieldValues, Out>({ form, name, normalize, ...props }: { form: UseFormReturn<V, unknown, Out>; name: Path<V>; /** Rewrites what is typed (e.g. digits only). */ normalize?: (value: string) => string } & Omit<FieldProps, 'form' | 'name' | 'errors' | 'value' | 'defaultValue'>) {
  const registered = form.register(name, { onChange: () => form.clearErrors(name) });
  const onChange = (event: { target: { value: string } }) => {
    if (normalize) event.target.value = normalize(event.target.value);
    void registered.onChange(event);
  };
  return <Field {...props} {...registered} onChange={onChange} errors={fieldMessages(form as UseFormReturn<V, unknown, unknown>, name)} />;
}

/** A `<form>` of a contract form: no browser validation (the schema's messages are shown), the form's messages above its fields. */
export function ContractFormView<V extends FieldValues, Out>({ form, className = 'form', children }: { form: ContractForm<V, Out>; className?: string; children: ReactNode }) {
  return (
    <form className={className} onSubmit={form.onSubmit} noValidate>
      <ErrorList messages={form.formErrors} />
      {children}
    </form>
  );
}
