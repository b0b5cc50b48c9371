import type { BalanceLine } from '@app/contracts/balance';
import { formatWords, mediaTokens, plural } from '@app/kit';

// Apart from the components: React Fast Refresh updates a module in place under `vite dev` only
// when it exports components alone.

export const WORDS = ['слово', 'слова', 'слов'] as const;

/** A line's change of the balance: «+10 000 слов», «−1,0 медиа токена» (media tokens with one decimal), «возвращено». */
export function amountText(line: Pick<BalanceLine, 'wallet' | 'amount' | 'kind'>): string {
  if (line.kind === 'returned') return 'возвращено';
  const sign = line.amount > 0 ? '+' : line.amount < 0 ? '−' : '';
  const abs = Math.abs(line.amount);
  return `${sign}${line.wallet === 'media' ? mediaTokens(abs) : `${formatWords(abs)} ${plural(abs, WORDS)}`}`;
}
