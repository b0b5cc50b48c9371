import { SecondFactorEnableBodySchema } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

export type EnableValues = { code: string };

/** The first code's form: the contract's schema, with what a story or the container passes. */
export function useEnableForm(options: { onSubmit: (values: EnableValues) => Promise<unknown>; values?: Partial<EnableValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<EnableValues> {
  return useContractForm(SecondFactorEnableBodySchema, {
    defaultValues: { code: '', ...options.values },
    fields: ['code'],
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
}
