import { useState } from 'react';
import type { PromoRedemption } from '@app/contracts/promo';

// Apart from the components: React Fast Refresh updates a module in place only when it exports components alone.

/** Where a discount code is taken: the plans page with the code filled in. */
export const discountHref = (paymentUrl: string, done: Extract<PromoRedemption, { kind: 'discount' }>) => `${paymentUrl}?promo=${encodeURIComponent(done.code)}`;

export type CopyState = 'idle' | 'copied' | 'failed';

/** Copies the link, saying whether the browser let it. */
export function useCopy(): [CopyState, (text: string) => void] {
  const [state, setState] = useState<CopyState>('idle');
  const copy = (text: string) => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      setState('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return [state, copy];
}
