import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetRequestApi } from './api.ts';

afterEach(() => vi.unstubAllGlobals());

describe('resetRequestApi', () => {
  it('posts {email} to /api/new/reset_password (seed §7)', async () => {
    document.cookie = 'XSRF-TOKEN=present; path=/';
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify({ status: 'success', json: { ok: true } })));
    vi.stubGlobal('fetch', fetchMock);
    await expect(resetRequestApi.request({ body: { email: 'anna@example.ru' } })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/new/reset_password');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ email: 'anna@example.ru' });
  });
});
