import { failureReason as failureWithoutRefund, type Generation } from '@app/contracts/generation';
import { formatWords, mediaTokens, plural } from '@app/kit';
import { STATUS_LABELS, type HistoryKind } from './texts.ts';

const WORD_FORMS = ['слово', 'слова', 'слов'] as const;

/** A run that may still change: queued or running. */
export const isActive = (run: Pick<Generation, 'status'>): boolean => run.status === 'queued' || run.status === 'running';

/** The badge of a run: «Выполняется 40%» while it runs (no per cent before the provider reports any: text models report none), else its status. */
export const statusLabel = (run: Pick<Generation, 'status' | 'progress'>): string => (run.status === 'running' && clampProgress(run.progress) > 0 ? `${STATUS_LABELS.running} ${String(clampProgress(run.progress))}%` : STATUS_LABELS[run.status]);

export const clampProgress = (progress: number): number => Math.min(100, Math.max(0, Math.round(progress)));

/** What a run costs (or held, or gave back): «2,5 медиа токена», «120 слов». */
export const costLabel = (cost: Generation['cost']): string => (cost.wallet === 'media' ? mediaTokens(cost.amount) : `${formatWords(cost.amount)} ${plural(cost.amount, WORD_FORMS)}`);

/** Why a run failed, without the sentence about the tokens (the card says that on a line of its own when they came back). */
export const failureReason = (run: Pick<Generation, 'error'>): string => failureWithoutRefund(run.error);

/** Where «Создать» leads: the catalogue, on its video or text list for those kinds. */
export function createUrl(productsUrl: string, kind: HistoryKind): string {
  if (kind === 'image') return productsUrl;
  return `${productsUrl}${productsUrl.includes('?') ? '&' : '?'}type=${kind}`;
}

/** The list a page shows: `/ai-history` is images unless its address says `?type=text`. */
export function kindFromSearch(type: 'image' | 'video', search: string): HistoryKind {
  return type === 'image' && new URLSearchParams(search).get('type') === 'text' ? 'text' : type;
}

/** `?page=n` of an address, 1 when missing or not a page number. */
export function pageFromSearch(search: string): number {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}
