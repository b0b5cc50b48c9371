import { describe, expect, it } from 'vitest';
import { billingEndpoints } from '@app/contracts/browser';
import { createQueryClient, routeKey, seedPageReplies } from './query.tsx';

describe('seedPageReplies', () => {
  it('puts each reply under the key useRouteQuery asks for that route and request, as of when it was read', () => {
    const client = createQueryClient();
    const at = Date.now() - 5_000;
    const plans = [{ id: 1, name: 'Старт' }];
    const source = JSON.stringify([
      { path: billingEndpoints.tariffs.path, request: { query: { frontend: '0' } }, json: plans, at },
      { path: billingEndpoints.subscribeCheck.path, request: {}, json: { subscribed: false }, at },
    ]);
    expect(seedPageReplies(client, source)).toBe(2);
    expect(client.getQueryData(routeKey(billingEndpoints.tariffs, { query: { frontend: '0' } }))).toEqual(plans);
    expect(client.getQueryData(routeKey(billingEndpoints.subscribeCheck, {}))).toEqual({ subscribed: false });
    expect(client.getQueryState(routeKey(billingEndpoints.tariffs, { query: { frontend: '0' } }))?.dataUpdatedAt).toBe(at);
    // Another request of the route is not answered by it.
    expect(client.getQueryData(routeKey(billingEndpoints.tariffs, { query: { frontend: '1' } }))).toBeUndefined();
  });

  it('a reply dated in the future (a server clock ahead) counts as read now', () => {
    const client = createQueryClient();
    seedPageReplies(client, JSON.stringify([{ path: '/api/new/user', request: {}, json: { id: 1 }, at: Date.now() + 3_600_000 }]));
    expect(client.getQueryState(['GET', '/api/new/user', {}])?.dataUpdatedAt).toBeLessThanOrEqual(Date.now());
  });

  it('skips what is not a reply and survives what is not JSON', () => {
    const client = createQueryClient();
    expect(seedPageReplies(client, null)).toBe(0);
    expect(seedPageReplies(client, '{not json')).toBe(0);
    expect(seedPageReplies(client, '{"path":"/api/new/user"}')).toBe(0);
    expect(seedPageReplies(client, JSON.stringify([null, 1, { path: 1, request: {}, json: 1, at: 1 }, { path: '/a', request: null, json: 1, at: 1 }, { path: '/b', request: {}, at: 1 }, { path: '/c', request: {}, json: 1, at: 'x' }]))).toBe(0);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
