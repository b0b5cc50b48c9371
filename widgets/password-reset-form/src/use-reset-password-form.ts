import { CLIENT_ERRORS, ResetPasswordBodySchema } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

export type ResetPasswordValues = { password: string; password_confirmation: string; token: string; email: string };
const FIELDS = ['password', 'password_confirmation'] as const;

/** The form: the contract's schema (the link's token and email ride along), with what a story or the container passes. */
export function useResetPasswordForm(options: { token: string; email: string; onSubmit: (values: ResetPasswordValues) => Promise<unknown>; values?: Partial<ResetPasswordValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<ResetPasswordValues> {
  const form = useContractForm(ResetPasswordBodySchema, {
    defaultValues: { password: '', password_confirmation: '', ...options.values, token: options.token, email: options.email },
    fields: FIELDS,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
  // A token or email that fails the check means a broken link, whatever the field's own message.
  return form.formErrors.length && !form.form.formState.isSubmitSuccessful && Object.keys(form.form.formState.errors).some((f) => f === 'token' || f === 'email') ? { ...form, formErrors: [CLIENT_ERRORS.RESET_TOKEN_INVALID] } : form;
}
