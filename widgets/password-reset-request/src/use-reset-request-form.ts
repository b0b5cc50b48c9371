import { ResetRequestBodySchema } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

export type ResetRequestValues = { email: string };

/** The form: the contract's schema, with what a story or the container passes. */
export function useResetRequestForm(options: { onSubmit: (values: ResetRequestValues) => Promise<unknown>; email?: string; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<ResetRequestValues> {
  return useContractForm(ResetRequestBodySchema, { defaultValues: { email: options.email ?? '' }, onSubmit: options.onSubmit, errors: options.errors, formErrors: options.formErrors });
}
