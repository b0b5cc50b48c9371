/** One choice of a model's parameter as stored: what the user sees and what it changes in the request. */
export interface ModelParam {
  value: string;
  label: string;
  /** Sampling temperature this choice asks for (chat and text models). */
  temperature?: number;
  /** A smaller answer limit than the model's own. */
  max_output_tokens?: number;
  /** Anything else passed to the provider as it is (`size`, `quality`, `duration`…). */
  provider?: Record<string, string | number | boolean>;
}

export interface ModelSetting {
  model: { params: ModelParam[] };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

function toParam(raw: unknown): ModelParam | null {
  if (!isRecord(raw)) return null;
  const value = typeof raw.value === 'string' || typeof raw.value === 'number' ? String(raw.value) : null;
  if (value === null || value.length === 0) return null;
  const label = typeof raw.label === 'string' && raw.label.length > 0 ? raw.label : value;
  const param: ModelParam = { value, label };
  if (typeof raw.temperature === 'number' && raw.temperature >= 0 && raw.temperature <= 2) param.temperature = raw.temperature;
  if (typeof raw.max_output_tokens === 'number' && Number.isInteger(raw.max_output_tokens) && raw.max_output_tokens > 0) param.max_output_tokens = raw.max_output_tokens;
  if (isRecord(raw.provider)) {
    const entries = Object.entries(raw.provider).filter((e): e is [string, string | number | boolean] => scalar(e[1]));
    if (entries.length) param.provider = Object.fromEntries(entries);
  }
  return param;
}

/**
 * A model's stored setting in one shape: the seed allows an object or a JSON string holding
 * `model.params`; anything unreadable (bad JSON, params not a list, entries without a value)
 * counts as no parameters rather than failing the model list.
 */
export function readModelSetting(stored: unknown): ModelSetting {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      value = null;
    }
  }
  const params = isRecord(value) && isRecord(value.model) && Array.isArray(value.model.params) ? value.model.params : [];
  const seen = new Set<string>();
  const read = params.map(toParam).filter((p): p is ModelParam => p !== null && !seen.has(p.value) && Boolean(seen.add(p.value)));
  return { model: { params: read } };
}

/** The chosen parameter: `param` when the model has it, the first one when none was sent; null for an unknown choice. */
export function chooseParam(setting: ModelSetting, param: string | undefined): ModelParam | null | undefined {
  const params = setting.model.params;
  if (param === undefined || param === '') return params[0];
  return params.find((p) => p.value === param) ?? null;
}
