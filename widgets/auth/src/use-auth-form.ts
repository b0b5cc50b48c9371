import { LoginBodySchema, RegisterBodySchema, type WidgetProps } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

/** `consent`: the registration's consent to the processing of personal data (a box that must be ticked). */
export type AuthValues = { email: string; password: string; password_confirmation: string; consent: boolean };
type Mode = WidgetProps<'auth'>['mode'];
type RegisterInput = Parameters<typeof useContractForm<typeof RegisterBodySchema>>[1]['defaultValues'];

/** The form of a mode: the contract's schema, empty values, and what a story or the container passes. */
export function useAuthForm(mode: Mode, options: { onSubmit: (values: AuthValues) => Promise<unknown>; values?: Partial<AuthValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<AuthValues> {
  // Both schemas check { email, password[, password_confirmation, consent] }: the login one ignores the rest.
  const schema = (mode === 'login' ? LoginBodySchema : RegisterBodySchema) as typeof RegisterBodySchema;
  const form = useContractForm(schema, {
    // The box starts unticked: the schema refuses the form until the user ticks it.
    defaultValues: { email: '', password: '', password_confirmation: '', consent: false, ...options.values } as unknown as RegisterInput,
    fields: mode === 'login' ? ['email', 'password'] : ['email', 'password', 'password_confirmation', 'consent'],
    keepBusyAfterSuccess: true,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
  return form as unknown as ContractForm<AuthValues>;
}
