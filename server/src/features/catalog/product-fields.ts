import type { ProductField } from '@app/contracts';

const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const DEFAULT_MAX_LENGTH = 500;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A product's template fields in one shape (stored as a JSON list, possibly as a string): entries
 * without a valid name (`[a-z][a-z0-9_]*`) or repeated are dropped, the rest get defaults.
 */
export function readProductFields(stored: unknown): ProductField[] {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      value = [];
    }
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const fields: ProductField[] = [];
  for (const raw of value) {
    if (!isRecord(raw) || typeof raw.name !== 'string' || !FIELD_NAME.test(raw.name) || seen.has(raw.name)) continue;
    seen.add(raw.name);
    const maxLength = typeof raw.max_length === 'number' && Number.isInteger(raw.max_length) && raw.max_length > 0 ? Math.min(raw.max_length, 5000) : DEFAULT_MAX_LENGTH;
    fields.push({
      name: raw.name,
      label: typeof raw.label === 'string' && raw.label ? raw.label : raw.name,
      placeholder: typeof raw.placeholder === 'string' ? raw.placeholder : '',
      multiline: raw.multiline === true,
      required: raw.required !== false,
      max_length: maxLength,
    });
  }
  return fields;
}

/**
 * The prompt of a template product: each `{name}` replaced by its field's value (unknown
 * placeholders stay as they are). An optional field left empty takes its label with it
 * («Тон: {tone}.» with no tone leaves nothing), so no «Тон: .» reaches the model.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const filled = template.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, name: string) => values[name] ?? whole);
  const empty = [...template.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].some((m) => values[m[1] ?? ''] === '');
  // Only a left-out field's label is tidied away; what users typed is sent as they typed it.
  if (!empty) return filled;
  return filled
    .replace(/(^|[.!?;,]\s*)[^.!?;,:«»{}]*:\s*(?=[.!?;,]|$)/g, '$1')
    .replace(/\s*,\s*(?=[.!?;]|$)/g, '')
    .replace(/([.!?;])(\s*[.;,])+/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * The prompt of a product with a fixed lead-in and the user's text: one sentence after the
 * other. A template that ends in its own punctuation («…для кофейни:») keeps it and is followed
 * by a space; otherwise a full stop comes between, never «:.».
 */
export function joinPrompt(template: string, prompt: string): string {
  const lead = template.trim();
  const text = prompt.trim();
  if (!lead) return text;
  if (!text) return lead;
  return /[.!?:;…,—-]$/.test(lead) ? `${lead} ${text}` : `${lead}. ${text}`;
}
