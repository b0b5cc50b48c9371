import { UNKNOWN_ERROR_MESSAGE } from '@app/contracts/browser';

/** Removes one pair of quotes around a message (seed §8). */
export const stripQuotes = (s: string) => s.trim().replace(/^(["'«])([\s\S]*)(["'»])$/, '$2').trim();

function tryParseJson(s: string): unknown {
  const t = s.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Messages of an error `text` as a list (seed §8): a string is one message (quotes removed;
 * a JSON string is read as what it holds); an object of messages gives its messages field by
 * field; anything else is «Произошла ошибка».
 */
export function errorMessages(text: unknown): string[] {
  if (typeof text === 'string') {
    const parsed = tryParseJson(text);
    if (parsed !== undefined) return errorMessages(parsed);
    const message = stripQuotes(text);
    return [message || UNKNOWN_ERROR_MESSAGE];
  }
  if (Array.isArray(text)) {
    const list = text.flatMap((item) => (typeof item === 'string' ? [stripQuotes(item)] : errorMessages(item))).filter(Boolean);
    return list.length ? list : [UNKNOWN_ERROR_MESSAGE];
  }
  if (text && typeof text === 'object') {
    const list = Object.values(text as Record<string, unknown>).flatMap((v) => (typeof v === 'string' ? [stripQuotes(v)] : Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string').map(stripQuotes) : []));
    return list.length ? list : [UNKNOWN_ERROR_MESSAGE];
  }
  return [UNKNOWN_ERROR_MESSAGE];
}

/** An error `text` joined into one string (seed §7: "a text field that is an object is joined"). */
export const errorMessage = (text: unknown) => errorMessages(text).join(' ');

/** Per-field messages of an error `text`, when it is an object of messages. */
export function fieldErrors(text: unknown): Record<string, string[]> {
  const value = typeof text === 'string' ? tryParseJson(text) : text;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value as Record<string, unknown>)) {
    const list = typeof messages === 'string' ? [messages] : Array.isArray(messages) ? messages.filter((m): m is string => typeof m === 'string') : [];
    if (list.length) out[field] = list.map(stripQuotes);
  }
  return out;
}
