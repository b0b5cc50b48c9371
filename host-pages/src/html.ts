/** Escapes text for HTML content and double-quoted attributes. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** JSON safe inside a `<script type="application/json">` element. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/** A tagged template whose interpolations are escaped unless wrapped in `raw()`. */
export class RawHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}
export const raw = (value: string) => new RawHtml(value);

type Part = string | number | RawHtml | null | undefined | false | readonly Part[];

function renderPart(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof RawHtml) return part.value;
  if (Array.isArray(part)) return (part as readonly Part[]).map(renderPart).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): RawHtml {
  let out = '';
  strings.forEach((s, i) => {
    out += s;
    if (i < parts.length) out += renderPart(parts[i]);
  });
  return new RawHtml(out);
}
