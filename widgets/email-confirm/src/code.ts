/** Only digits, at most six: a pasted «123 456» or «123-456» still fits. */
export const normalizeCode = (value: string) => value.replace(/\D/g, '').slice(0, 6);
