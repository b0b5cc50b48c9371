import { SandboxChargeBodySchema } from '@app/contracts/browser';
import { useContractForm, type ContractForm } from '@app/kit/forms';

/** What the form holds (the payment id rides along as given) and what it sends. */
export type CardInput = { payment_id: unknown; card_number: string; exp: string; cvv: string };
export type CardValues = { payment_id: number; card_number: string; exp: string; cvv: string };
const FIELDS = ['card_number', 'exp', 'cvv'] as const;

/** The card form: the contract's schema (the payment rides along), with what a story or the container passes. */
export function useCardForm(options: { paymentId: number; onSubmit: (values: CardValues) => Promise<unknown>; values?: Partial<CardInput>; errors?: Record<string, string[]>; formErrors?: string[] }): ContractForm<CardInput, CardValues> {
  return useContractForm(SandboxChargeBodySchema, {
    defaultValues: { card_number: '', exp: '', cvv: '', ...options.values, payment_id: options.paymentId },
    fields: FIELDS,
    onSubmit: options.onSubmit,
    errors: options.errors,
    formErrors: options.formErrors,
  });
}
