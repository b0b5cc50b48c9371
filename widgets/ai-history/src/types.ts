import type { Generation } from '@app/contracts/generation';

/** The result open full size: a run and which of its outputs. */
export interface OpenResult {
  run: Generation;
  output: number;
}

/** What a «Копировать» click did, shown on that card (and in the full view) for a moment. */
export interface CopyNote {
  id: number;
  ok: boolean;
}
