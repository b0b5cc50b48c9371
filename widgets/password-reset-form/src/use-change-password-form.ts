import { ChangePasswordBodySchema } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

export type ChangePasswordValues = { current_password: string; password: string; password_confirmation: string };

/** The change form: the contract's schema (the new password twice, not the current one again), with what a story or the container passes. */
export function useChangePasswordForm(options: { onSubmit: (values: ChangePasswordValues) => Promise<unknown>; values?: Partial<ChangePasswordValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<ChangePasswordValues> {
  return useContractForm(ChangePasswordBodySchema, {
    defaultValues: { current_password: '', password: '', password_confirmation: '', ...options.values },
    fields: ['current_password', 'password', 'password_confirmation'],
    // The page moves on after a success: the button stays busy until it does.
    keepBusyAfterSuccess: true,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
}
