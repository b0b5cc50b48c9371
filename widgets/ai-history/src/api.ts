import { generationEndpoints } from '@app/contracts/generation';
import { routeCall } from '@app/kit';

/** The calls of the history (tests and stories pass fakes with the same routes). */
export const aiHistoryApi = {
  /** GET /api/new/generations?type=image|video|text&page=n: 24 runs a page, newest first. */
  history: routeCall(generationEndpoints.history),
  /** POST /api/new/generations/:id/cancel: a queued run only (409 once it runs); its tokens come back. */
  cancel: routeCall(generationEndpoints.cancel),
};

export type AiHistoryApi = typeof aiHistoryApi;
