import { LoginBodySchema, RegisterBodySchema, type WidgetProps } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

export type AuthValues = { email: string; password: string; password_confirmation: string };
type Mode = WidgetProps<'auth'>['mode'];

/** The form of a mode: the contract's schema, empty values, and what a story or the container passes. */
export function useAuthForm(mode: Mode, options: { onSubmit: (values: AuthValues) => Promise<unknown>; values?: Partial<AuthValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<AuthValues> {
  // Both schemas check { email, password[, password_confirmation] }: the login one ignores the confirmation.
  const schema = (mode === 'login' ? LoginBodySchema : RegisterBodySchema) as typeof RegisterBodySchema;
  return useContractForm(schema, {
    defaultValues: { email: '', password: '', password_confirmation: '', ...options.values },
    fields: mode === 'login' ? ['email', 'password'] : ['email', 'password', 'password_confirmation'],
    keepBusyAfterSuccess: true,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
}
