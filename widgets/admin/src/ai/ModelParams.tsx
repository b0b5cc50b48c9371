import { useId } from 'react';
import type { ModelKindName } from '@app/contracts/admin';
import { Button } from '@app/kit';
import { MODEL_PRESETS, PARAM_PLACEHOLDERS } from './model-presets.ts';
import { RowInput, RowList, numberOf, rowKey, type Row } from './RowList.tsx';
import { paramPrice, type ModelParam } from './texts.ts';

/** A parameter choice as the form holds it; what goes to the provider as `name=value` lines. */
export interface ParamRow extends Row {
  value: string;
  label: string;
  temperature: string;
  max_output_tokens: string;
  provider: string;
}

export const MAX_PARAMS = 50;
const PROVIDER_NAME = /^[a-z][a-z0-9_]{0,63}$/;

const show = (v: string | number | boolean) => (typeof v === 'number' ? String(v) : typeof v === 'boolean' ? String(v) : v);

export const toParamRows = (params: readonly ModelParam[]): ParamRow[] =>
  params.map((p) => ({
    key: rowKey(),
    value: p.value,
    label: p.label,
    temperature: p.temperature === undefined ? '' : String(p.temperature),
    max_output_tokens: p.max_output_tokens === undefined ? '' : String(p.max_output_tokens),
    provider: Object.entries(p.provider ?? {})
      .map(([k, v]) => `${k}=${show(v)}`)
      .join('\n'),
  }));

/** A provider value as typed: true/false and numbers as themselves, anything else as text. */
const scalar = (text: string): string | number | boolean => {
  if (text === 'true' || text === 'false') return text === 'true';
  const n = Number(text);
  return text.trim() !== '' && /^-?\d+(\.\d+)?$/.test(text.trim()) && Number.isFinite(n) ? n : text;
};

/** `name=value` lines (blank lines skipped). */
const providerLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('=');
      return at < 0 ? { name: line, value: null } : { name: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
    });

/** One choice as the server takes it. */
export function fromParamRow(row: ParamRow): ModelParam {
  const param: ModelParam = { value: row.value.trim(), label: row.label.trim() };
  const temperature = numberOf(row.temperature);
  const maxOutput = numberOf(row.max_output_tokens);
  if (temperature !== null) param.temperature = temperature;
  if (maxOutput !== null) param.max_output_tokens = maxOutput;
  const lines = providerLines(row.provider);
  if (lines.length) param.provider = Object.fromEntries(lines.map((l) => [l.name, scalar(l.value ?? '')]));
  return param;
}

type ParamErrors = Partial<Record<'value' | 'label' | 'temperature' | 'max_output_tokens' | 'provider', string>>;

/** What is wrong with each choice, by the contract's rules (`ModelParamSchema`) and one value per choice. */
export function checkParamRows(rows: readonly ParamRow[]): Record<string, ParamErrors> {
  const out: Record<string, ParamErrors> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const errors: ParamErrors = {};
    const value = row.value.trim();
    if (!value) errors.value = 'Укажите значение варианта';
    else if (value.length > 100) errors.value = 'Не длиннее 100 символов';
    else if (seen.has(value)) errors.value = 'Такое значение уже есть: у каждого варианта своё';
    seen.add(value);
    if (!row.label.trim()) errors.label = 'Укажите подпись варианта';
    else if (row.label.trim().length > 200) errors.label = 'Не длиннее 200 символов';
    const temperature = numberOf(row.temperature);
    if (temperature !== null && !(temperature >= 0 && temperature <= 2)) errors.temperature = 'Число от 0 до 2';
    const maxOutput = numberOf(row.max_output_tokens);
    if (maxOutput !== null && !(Number.isInteger(maxOutput) && maxOutput >= 1 && maxOutput <= 200_000)) errors.max_output_tokens = 'Целое число от 1 до 200 000';
    const lines = providerLines(row.provider);
    const wrong = lines.find((l) => l.value === null || !PROVIDER_NAME.test(l.name));
    if (wrong) errors.provider = `«${wrong.name}»: нужна строка вида имя=значение, имя из строчных латинских букв, цифр и _`;
    else if (lines.length > 20) errors.provider = 'Не больше 20 параметров провайдера';
    else if (lines.some((l) => (l.value ?? '').length > 500)) errors.provider = 'Значение: не длиннее 500 символов';
    else if (new Set(lines.map((l) => l.name)).size < lines.length) errors.provider = 'Параметр провайдера повторяется';
    if (Object.keys(errors).length) out[row.key] = errors;
  }
  return out;
}

export interface ModelParamsProps {
  /** The model's kind: what its choices usually are (the presets and the placeholders). */
  kind: ModelKindName;
  rows: readonly ParamRow[];
  onChange: (rows: ParamRow[]) => void;
  errors: ReturnType<typeof checkParamRows>;
  serverErrors: readonly string[];
  /** The model as typed: each choice shows what a run with it costs. */
  pricing: Parameters<typeof paramPrice>[0] | null;
}

/** `setting.model.params`: the choices a user picks from (quality, size, duration, temperature presets…). */
export function ModelParams({ kind, rows, onChange, errors, serverErrors, pricing }: ModelParamsProps) {
  const id = useId();
  const talks = kind === 'chat' || kind === 'text';
  const hint = PARAM_PLACEHOLDERS[kind];
  const presets = MODEL_PRESETS[kind];
  const missing = presets.rows.filter((p) => !rows.some((r) => r.value.trim() === p.value));
  return (
    <>
      <RowList
        label="Варианты параметров"
        rowLabel={(row, i) => `Вариант ${String(i + 1)}${row.label ? ` «${row.label}»` : ''}`}
        rows={rows}
        onChange={onChange}
        create={() => ({ key: rowKey(), value: '', label: '', temperature: '', max_output_tokens: '', provider: '' })}
        addLabel="Добавить вариант"
        max={MAX_PARAMS}
        empty="Вариантов нет: модель работает с настройками по умолчанию, пользователь ничего не выбирает."
        errors={serverErrors}
      >
        {(row, update) => {
          const e = errors[row.key] ?? {};
          const at = `${id}-${row.key}`;
          const lines = providerLines(row.provider).length;
          return (
            <div className="ai-row__grid">
              <RowInput id={`${at}-value`} label="Значение" value={row.value} onChange={(value) => update({ value })} error={e.value} placeholder={hint.value} />
              <RowInput id={`${at}-label`} label="Подпись" value={row.label} onChange={(label) => update({ label })} error={e.label} placeholder={hint.label} />
              {(talks || row.temperature !== '' || row.max_output_tokens !== '') && (
                <>
                  <RowInput id={`${at}-temperature`} label="Температура (0–2)" value={row.temperature} onChange={(temperature) => update({ temperature })} error={e.temperature} inputMode="decimal" />
                  <RowInput id={`${at}-max`} label="Лимит ответа, токенов" value={row.max_output_tokens} onChange={(max_output_tokens) => update({ max_output_tokens })} error={e.max_output_tokens} inputMode="numeric" hint="Пусто — лимит модели" />
                </>
              )}
              <div className={`field ai-row__wide${e.provider ? ' field--invalid' : ''}`}>
                <label className="field__label" htmlFor={`${at}-provider`}>
                  Параметры провайдера: имя=значение, по одному в строке
                </label>
                <textarea
                  id={`${at}-provider`}
                  className="field__input"
                  rows={Math.min(Math.max(lines, 2), 6)}
                  value={row.provider}
                  placeholder={hint.provider}
                  onChange={(ev) => update({ provider: ev.target.value })}
                  aria-invalid={e.provider ? true : undefined}
                  aria-describedby={`${at}-provider-note`}
                />
                <p className={e.provider ? 'field__errors' : 'field__hint'} id={`${at}-provider-note`}>
                  {e.provider ?? 'Числа и true/false — как есть, остальное — строкой'}
                </p>
              </div>
              {pricing && (
                <p className="ai-row__price ai-row__wide">
                  Цена запуска: <strong>{paramPrice(pricing, fromParamRow(row))}</strong>
                </p>
              )}
            </div>
          );
        }}
      </RowList>
      {missing.length > 0 && rows.length + missing.length <= MAX_PARAMS && (
        <Button variant="secondary" className="ai-presets" onClick={() => onChange([...rows, ...missing.map((p) => ({ ...p, key: rowKey() }))])}>
          {presets.add}
        </Button>
      )}
    </>
  );
}
