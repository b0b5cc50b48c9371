import { formatMoney, formatRub } from './format.ts';

/**
 * An amount in the currency a record names (`currency_provider`): rubles as `1 490 ₽`
 * (the seed's currency), anything else with its code after the number.
 */
export function formatAmount(amount: number, currency: string): string {
  const code = currency.trim().toUpperCase();
  if (code === '' || code === 'RUB' || code === 'RUR' || code === '₽') return formatRub(amount);
  return `${formatMoney(amount)} ${currency.trim()}`;
}
