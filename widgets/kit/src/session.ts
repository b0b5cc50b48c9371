/** The bearer token lives in browser storage (seed §6). */
const TOKEN_KEY = 'auth_token';

export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable: nothing to clear
  }
}

/** Navigates the page; one place so tests and stories can observe it. */
export function navigate(url: string): void {
  window.location.assign(url);
}
