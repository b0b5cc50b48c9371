import type { SandboxCheckoutMessage } from '@app/contracts/browser';

/** Tells the page that opened the checkout frame how it ended (only that page's origin may read it). */
export function postCheckoutMessage(message: SandboxCheckoutMessage): void {
  window.parent.postMessage(message, window.location.origin);
}
