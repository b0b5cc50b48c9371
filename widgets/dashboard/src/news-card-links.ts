// Which links and icons a news card may use (apart from the component: React Fast Refresh updates a
// module in place under `vite dev` only when it exports components alone).

/** A link a card may follow: same-site paths and http(s) addresses only. */
export function safeHref(link: string): string | null {
  const value = link.trim();
  if (/^\/(?![/\\])/.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** An icon given as an image address (same-site path, http(s) or a data: image). */
export function iconImage(icon: string): string | null {
  const value = icon.trim();
  if (/^data:image\/(png|jpe?g|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/i.test(value)) return value;
  if (/\s/.test(value)) return null;
  return safeHref(value);
}
