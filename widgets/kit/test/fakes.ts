import { vi, type Mock } from 'vitest';
import type { ClientRoute, RequestOf, ResponseOf, RouteContract } from '@app/contracts/browser';
import type { RouteCall } from '../src/query.tsx';

/**
 * A fake of one route's call for a widget's `api`: a vitest mock (assert its calls) that keeps
 * the route, so queries and mutations key it as the real one. `answer` is the reply, or a
 * function of the request.
 */
export function fakeRoute<R extends RouteContract>(route: ClientRoute<R>, answer?: ResponseOf<R> | ((request: RequestOf<R>) => ResponseOf<R> | Promise<ResponseOf<R>>)): Mock<(request?: RequestOf<R>) => Promise<ResponseOf<R>>> & RouteCall<R> {
  const impl = (request?: RequestOf<R>) => Promise.resolve(typeof answer === 'function' ? (answer as (r: RequestOf<R>) => ResponseOf<R>)(request ?? ({} as RequestOf<R>)) : (answer as ResponseOf<R>));
  return Object.assign(vi.fn(impl), { route });
}
