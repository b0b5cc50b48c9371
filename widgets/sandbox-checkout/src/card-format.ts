// How the card fields format what is typed (apart from the components: React Fast Refresh updates
// a module in place under `vite dev` only when it exports components alone).

/** `4242424242424242` → `4242 4242 4242 4242` (digits only, at most 16). */
export const formatCardNumber = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 16)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** `1229` → `12/29`; the slash appears once the year starts, so erasing works naturally. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export const formatCvv = (value: string) => value.replace(/\D/g, '').slice(0, 3);
