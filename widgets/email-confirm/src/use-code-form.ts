import { ConfirmEmailBodySchema } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

export type CodeValues = { code: string };

/** The code form: the contract's schema, with what a story or the container passes. */
export function useCodeForm(options: { onSubmit: (values: CodeValues) => Promise<unknown>; code?: string; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<CodeValues> {
  return useContractForm(ConfirmEmailBodySchema, { defaultValues: { code: options.code ?? '' }, onSubmit: options.onSubmit, errors: options.errors, formErrors: options.formErrors });
}
