import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetPasswordApi } from './api.ts';

afterEach(() => vi.unstubAllGlobals());

describe('resetPasswordApi', () => {
  it('posts the new password with `_method: PATCH` to /api/new/reset_password (seed §7)', async () => {
    document.cookie = 'XSRF-TOKEN=present; path=/';
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify({ status: 'success', json: { ok: true } })));
    vi.stubGlobal('fetch', fetchMock);
    const body = { password: 'new-secret-password', password_confirmation: 'new-secret-password', token: 'reset-token', email: 'anna@example.ru' };
    await expect(resetPasswordApi.resetPassword({ body })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/new/reset_password');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ ...body, _method: 'PATCH' });
  });
});
