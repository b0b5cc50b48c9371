import { DeleteAccountBodySchema } from '@app/contracts/privacy';
import { useContractForm, type ContractForm } from '@app/kit/forms';

/*
 * Apart from the components (a module of components alone is what Fast Refresh updates in place
 * under `npm run dev`).
 */
export type DeleteValues = { password: string; confirm: boolean };

type DeleteInput = Parameters<typeof useContractForm<typeof DeleteAccountBodySchema>>[1]['defaultValues'];

/** The deletion form: the contract's schema, an unticked box; a story passes values and errors. */
export function useDeleteForm(options: { onSubmit: (values: { password: string }) => Promise<unknown>; values?: Partial<DeleteValues>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<DeleteValues> {
  const form = useContractForm(DeleteAccountBodySchema, {
    defaultValues: { password: '', confirm: false, ...options.values } as unknown as DeleteInput,
    fields: ['password', 'confirm'],
    keepBusyAfterSuccess: true,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
  return form as unknown as ContractForm<DeleteValues>;
}

