import type { Balances } from '@app/contracts';

/**
 * Widgets of one page are built and mounted apart; when one of them learns the user's new
 * balances (the welcome gift was granted), it tells the others with this window event.
 */
export const BALANCES_EVENT = 'neurostudio:balances';

export function announceBalances(balances: Balances): void {
  window.dispatchEvent(new CustomEvent<Balances>(BALANCES_EVENT, { detail: balances }));
}

/** Calls `listener` with each announced balance; answers the unsubscribe function (an effect's cleanup). */
export function onBalances(listener: (balances: Balances) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<Balances>).detail);
  window.addEventListener(BALANCES_EVENT, handler);
  return () => window.removeEventListener(BALANCES_EVENT, handler);
}
