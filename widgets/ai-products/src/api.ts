import { accountEndpoints, billingEndpoints, type RequestOf, type StreamEventOf } from '@app/contracts/browser';
import { catalogEndpoints, generationEndpoints } from '@app/contracts/generation';
import { routeCall } from '@app/kit';
import { stream } from '@app/kit/stream';

type EventsRoute = NonNullable<(typeof generationEndpoints.events)['contract']>;
/** One event of a run as it goes: `progress`, then `done` with the final run. */
export type RunEvent = StreamEventOf<EventsRoute>;
/** Follows a run's events until `done`; rejects with an ApiError when the stream cannot be read. */
export type RunEventsFn = (request: RequestOf<EventsRoute>, options: { onEvent: (event: RunEvent) => void; signal?: AbortSignal }) => Promise<void>;

/** The calls of the catalogue widget (tests and stories pass fakes with the same routes). */
export const productsApi = {
  /** GET /api/new/ai-products?type=video|image|text: categories with their products. */
  products: routeCall(catalogEndpoints.products),
  /** GET /api/new/ai-products/:id: one product with its fields, parameter choices and prices. */
  product: routeCall(catalogEndpoints.product),
  /** POST /api/new/generations (multipart): holds the price and queues the run; answers the run at once. */
  start: routeCall(generationEndpoints.start),
  /** GET /api/new/generations/:id: a run's status (the fallback when its events cannot be read). */
  status: routeCall(generationEndpoints.status),
  /** POST /api/new/generations/:id/cancel: a queued run is cancelled and its tokens come back. */
  cancel: routeCall(generationEndpoints.cancel),
  /** GET /api/new/user: the balances, shared with the other widgets of the page. */
  user: routeCall(accountEndpoints.user),
  /** GET /api/new/subscribe/check: whether the user has a plan to buy packages to (read when too few tokens). */
  check: routeCall(billingEndpoints.subscribeCheck),
  /** GET /api/new/generations/:id/events (Server-Sent Events). */
  events: ((request, options) => stream(generationEndpoints.events, request, options)) as RunEventsFn,
};

export type ProductsApi = typeof productsApi;
