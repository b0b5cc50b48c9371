import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { accountEndpoints as accountRoutes, chatEndpoints as chatRoutes } from '@app/contracts/browser';
import { ApiError, call } from './api.ts';

type FetchArgs = [url: string, init: RequestInit];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const success = (data: unknown) => json({ status: 'success', json: data });

function setCookie(value: string) {
  document.cookie = `XSRF-TOKEN=${value}; path=/`;
}
function clearCookie() {
  document.cookie = 'XSRF-TOKEN=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
}

/** A fake `fetch`: `/sanctum/csrf-cookie` sets the cookie; other calls answer from `replies` in turn. */
function stubFetch(...replies: (Response | Error)[]): Mock<(...args: FetchArgs) => Promise<Response>> {
  let csrfIssued = 0;
  const fetchMock = vi.fn(async (url: string, _init: RequestInit): Promise<Response> => {
    if (url === '/sanctum/csrf-cookie') {
      csrfIssued += 1;
      setCookie(encodeURIComponent(`xsrf=${String(csrfIssued)}`));
      return new Response(null, { status: 204 });
    }
    const reply = replies.shift();
    if (!reply) throw new Error(`unexpected call to ${url}`);
    if (reply instanceof Error) throw reply;
    return reply;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const headersOf = (init: RequestInit | undefined) => (init?.headers ?? {}) as Record<string, string>;
const urls = (fetchMock: Mock<(...args: FetchArgs) => Promise<Response>>) => fetchMock.mock.calls.map(([url]) => url);

const user = { id: 1, email: 'anna@example.ru', email_confirmed: true, role: 'user', balances: { words: 10000, media: 3 }, resend_in: 0 };

beforeEach(clearCookie);
afterEach(() => {
  vi.unstubAllGlobals();
  clearCookie();
});

describe('an account blocked while its page is open', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it('covers the page once with «Аккаунт заблокирован», the way to support and «Выйти», whichever call was refused', async () => {
    const footer = document.createElement('footer');
    footer.className = 'site-footer';
    footer.innerHTML = '<a href="https://t.me/support">Поддержка</a>';
    document.body.append(footer);
    const blocked = () => json({ status: 'error', text: 'Аккаунт заблокирован. Обратитесь в поддержку', code: 'ACCOUNT_BLOCKED' }, 403);
    stubFetch(blocked(), blocked());
    await expect(call(accountRoutes.user)).rejects.toMatchObject({ status: 403, code: 'ACCOUNT_BLOCKED', message: 'Аккаунт заблокирован. Обратитесь в поддержку' });
    await expect(call(chatRoutes.list, { query: { page: 1 } })).rejects.toBeInstanceOf(ApiError);
    // The notice is a chunk of its own, loaded at the first refusal.
    await vi.dynamicImportSettled();
    const notices = document.querySelectorAll('[role="alertdialog"]');
    expect(notices).toHaveLength(1);
    const notice = notices[0] as HTMLElement;
    expect(notice.querySelector('h1')?.textContent).toBe('Аккаунт заблокирован');
    expect(document.activeElement).toBe(notice.querySelector('h1'));
    expect(Array.from(notice.querySelectorAll('a'), (a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Написать в поддержку', 'https://t.me/support'],
      ['Выйти', '/logout'],
    ]);
  });

  it('another refusal covers nothing', async () => {
    stubFetch(json({ status: 'error', text: 'Недостаточно прав', code: 'FORBIDDEN' }, 403));
    await expect(call(accountRoutes.user)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await vi.dynamicImportSettled();
    expect(document.querySelector('[role="alertdialog"]')).toBeNull();
  });
});

describe('call', () => {
  it('sends the bearer token from browser storage and returns json of a success reply', async () => {
    window.localStorage.setItem('auth_token', 'ns_secret');
    const fetchMock = stubFetch(success(user));
    await expect(call(accountRoutes.user)).resolves.toEqual(user);
    expect(urls(fetchMock)).toEqual(['/api/new/user']);
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.method).toBe('GET');
    expect(headersOf(init)).toMatchObject({ Authorization: 'Bearer ns_secret', Accept: 'application/json' });
  });

  it('sends no Authorization header without a stored token', async () => {
    const fetchMock = stubFetch(success({ ok: true }));
    await call(accountRoutes.logout);
    expect(headersOf(fetchMock.mock.calls[0]?.[1])).not.toHaveProperty('Authorization');
  });

  it('fills path parameters and the query', async () => {
    const fetchMock = stubFetch(success({ data: [], last_page: 1 }), success([]), success([]));
    await call(chatRoutes.list, { query: { page: 3 } });
    await call(chatRoutes.messages, { params: { id: 42 }, query: {} });
    await call(chatRoutes.messages, { params: { id: 42 }, query: { before: 900 } });
    expect(urls(fetchMock)).toEqual(['/api/new/chat?page=3', '/api/new/chat/42', '/api/new/chat/42?before=900']);
  });

  it('fetches the CSRF cookie before a POST when it is missing and echoes it', async () => {
    const fetchMock = stubFetch(success({ ok: true }));
    await call(accountRoutes.resetRequest, { body: { email: 'anna@example.ru' } });
    expect(urls(fetchMock)).toEqual(['/sanctum/csrf-cookie', '/api/new/reset_password']);
    const [, init] = fetchMock.mock.calls[1] ?? [];
    expect(init?.method).toBe('POST');
    expect(headersOf(init)).toMatchObject({ 'X-XSRF-TOKEN': 'xsrf=1', 'Content-Type': 'application/json' });
    expect(init?.body).toBe(JSON.stringify({ email: 'anna@example.ru' }));
  });

  it('reuses a CSRF cookie it already has', async () => {
    setCookie('present');
    const fetchMock = stubFetch(success({ ok: true }));
    await call(accountRoutes.resetRequest, { body: { email: 'anna@example.ru' } });
    expect(urls(fetchMock)).toEqual(['/api/new/reset_password']);
    expect(headersOf(fetchMock.mock.calls[0]?.[1])['X-XSRF-TOKEN']).toBe('present');
  });

  it('refreshes the CSRF cookie and retries once on 419', async () => {
    setCookie('stale');
    const expired = () => json({ status: 'error', text: 'Сессия устарела. Обновите страницу и попробуйте снова', code: 'CSRF_MISMATCH' }, 419);
    const fetchMock = stubFetch(expired(), success({ ok: true }));
    await expect(call(accountRoutes.resetRequest, { body: { email: 'anna@example.ru' } })).resolves.toEqual({ ok: true });
    expect(urls(fetchMock)).toEqual(['/api/new/reset_password', '/sanctum/csrf-cookie', '/api/new/reset_password']);
    expect(headersOf(fetchMock.mock.calls[0]?.[1])['X-XSRF-TOKEN']).toBe('stale');
    expect(headersOf(fetchMock.mock.calls[2]?.[1])['X-XSRF-TOKEN']).toBe('xsrf=1');

    const again = stubFetch(expired(), expired());
    const error = await call(accountRoutes.resetRequest, { body: { email: 'anna@example.ru' } }).catch((e: unknown) => e);
    expect(urls(again)).toEqual(['/api/new/reset_password', '/sanctum/csrf-cookie', '/api/new/reset_password']);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(419);
  });

  it('turns an error envelope into an ApiError with its message and field messages', async () => {
    setCookie('present');
    stubFetch(json({ status: 'error', text: { code: ['Неверный код'] }, code: 'CODE_INVALID' }, 422));
    const error = await call(accountRoutes.confirmEmail, { body: { code: '000000' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'CODE_INVALID', message: 'Неверный код', fields: { code: ['Неверный код'] } });
  });

  it('reads a one-message error with its quotes removed', async () => {
    setCookie('present');
    stubFetch(json({ status: 'error', text: '"Новый код можно запросить через минуту"', code: 'RESEND_TOO_SOON' }, 429));
    await expect(call(accountRoutes.resendConfirmation)).rejects.toMatchObject({ status: 429, message: 'Новый код можно запросить через минуту', fields: {} });
  });

  it('reads a reply that is not an envelope as «Произошла ошибка»', async () => {
    stubFetch(new Response('<html>Bad gateway</html>', { status: 502 }), json({ json: user }));
    await expect(call(accountRoutes.user)).rejects.toMatchObject({ status: 502, message: 'Произошла ошибка' });
    await expect(call(accountRoutes.user)).rejects.toMatchObject({ status: 200, message: 'Произошла ошибка' });
  });

  it('turns a network failure into an ApiError with a Russian message', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = await call(accountRoutes.user).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' });
  });

  it('spoofs PATCH as a POST with `_method` when asked (seed §7 reset call)', async () => {
    setCookie('present');
    const fetchMock = stubFetch(success({ ok: true }), success({ ok: true }));
    const body = { password: 'new-password', password_confirmation: 'new-password', token: 'tok', email: 'anna@example.ru' };
    await call(accountRoutes.resetPassword, { body }, { spoofMethod: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/new/reset_password');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ ...body, _method: 'PATCH' });

    await call(accountRoutes.resetPassword, { body });
    expect(fetchMock.mock.calls[1]?.[1].method).toBe('PATCH');
  });

  it('adds `_method` to a multipart body without changing the caller’s form', async () => {
    setCookie('present');
    const fetchMock = stubFetch(success({ ok: true }));
    const form = new FormData();
    form.append('email', 'anna@example.ru');
    await call(accountRoutes.resetPassword, { body: form }, { spoofMethod: true });
    const sent = fetchMock.mock.calls[0]?.[1].body as FormData;
    expect(sent.get('_method')).toBe('PATCH');
    expect(sent.get('email')).toBe('anna@example.ru');
    expect(form.has('_method')).toBe(false);
    expect(headersOf(fetchMock.mock.calls[0]?.[1])).not.toHaveProperty('Content-Type');
  });
});
