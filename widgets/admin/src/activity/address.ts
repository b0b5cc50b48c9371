/** `href` with `params` set (a null or empty value removed), keeping its other parameters. */
export function withParams(href: string, params: Record<string, string | null | undefined>): string {
  const at = href.indexOf('?');
  const path = at < 0 ? href : href.slice(0, at);
  const search = new URLSearchParams(at < 0 ? '' : href.slice(at + 1));
  for (const [name, value] of Object.entries(params)) {
    if (value) search.set(name, value);
    else search.delete(name);
  }
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

/** The parameter `name` of an address's query when it is one of `allowed`. */
export function oneOf<const T extends string>(search: string, name: string, allowed: readonly T[]): T | null {
  const value = new URLSearchParams(search).get(name);
  return allowed.find((a) => a === value) ?? null;
}

/** A positive whole number in the address's query (a record's id), or null. */
export function idParam(search: string, name: string): number | null {
  const value = new URLSearchParams(search).get(name) ?? '';
  return /^\d{1,12}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/** A stored file as admins read it (the owner-or-admin file route). */
export const fileUrl = (id: number, download = false) => `/api/new/files/${String(id)}${download ? '?download=1' : ''}`;
