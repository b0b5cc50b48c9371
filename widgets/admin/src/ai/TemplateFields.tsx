import { useId } from 'react';
import type { AdminAiProduct } from '@app/contracts/admin';
import { Button } from '@app/kit';
import { RowCheck, RowInput, RowList, numberOf, rowKey, type Row } from './RowList.tsx';

type ProductField = AdminAiProduct['fields'][number];

/** A template field as the form holds it. */
export interface FieldRow extends Row {
  name: string;
  label: string;
  placeholder: string;
  multiline: boolean;
  required: boolean;
  max_length: string;
}

/** The most fields a product takes (the contract's). */
export const MAX_FIELDS = 20;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

export const toFieldRows = (fields: readonly ProductField[]): FieldRow[] => fields.map((f) => ({ ...f, key: rowKey(), max_length: String(f.max_length) }));

const newField = (name = ''): FieldRow => ({ key: rowKey(), name, label: '', placeholder: '', multiline: false, required: true, max_length: '500' });

/** The fields as the server takes them. */
export const fromFieldRows = (rows: readonly FieldRow[]): ProductField[] =>
  rows.map(({ key: _key, ...f }) => ({ ...f, name: f.name.trim(), label: f.label.trim(), max_length: numberOf(f.max_length) ?? 500 }));

/** `{name}`s of a template, in order, once each. */
export const placeholders = (template: string) => [...new Set([...template.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1] ?? ''))];

/** What is wrong with each row, by the contract's rules (`AdminProductFieldSchema`) and one name per field. */
export function checkFieldRows(rows: readonly FieldRow[]): Record<string, Partial<Record<'name' | 'label' | 'placeholder' | 'max_length', string>>> {
  const out: Record<string, Partial<Record<'name' | 'label' | 'placeholder' | 'max_length', string>>> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const errors: (typeof out)[string] = {};
    const name = row.name.trim();
    if (!FIELD_NAME.test(name)) errors.name = 'Строчные латинские буквы, цифры и _, с буквы, до 40 символов';
    else if (seen.has(name)) errors.name = 'Такое имя уже есть';
    seen.add(name);
    if (!row.label.trim()) errors.label = 'Укажите подпись поля';
    else if (row.label.trim().length > 100) errors.label = 'Не длиннее 100 символов';
    if (row.placeholder.length > 200) errors.placeholder = 'Не длиннее 200 символов';
    const max = numberOf(row.max_length);
    if (max === null || !Number.isInteger(max) || max < 1 || max > 5000) errors.max_length = 'Целое число от 1 до 5000';
    if (Object.keys(errors).length) out[row.key] = errors;
  }
  return out;
}

export interface TemplateFieldsProps {
  rows: readonly FieldRow[];
  onChange: (rows: FieldRow[]) => void;
  /** The template as typed: placeholders without a field and fields it does not use are pointed out. */
  template: string;
  /** Shown after a submit: each row's problems. */
  errors: ReturnType<typeof checkFieldRows>;
  serverErrors: readonly string[];
}

/** The fields a user fills in, each replacing its `{name}` in the template. */
export function TemplateFields({ rows, onChange, template, errors, serverErrors }: TemplateFieldsProps) {
  const id = useId();
  const used = placeholders(template);
  const names = new Set(rows.map((r) => r.name.trim()));
  const missing = used.filter((n) => !names.has(n));
  const unused = rows.filter((r) => r.name.trim() && !used.includes(r.name.trim()));
  return (
    <>
      <RowList
        label="Поля шаблона"
        rowLabel={(row, i) => `Поле ${String(i + 1)}${row.name ? ` {${row.name}}` : ''}`}
        rows={rows}
        onChange={onChange}
        create={() => newField()}
        addLabel="Добавить поле"
        max={MAX_FIELDS}
        empty="Полей пока нет."
        errors={serverErrors}
      >
        {(row, update) => {
          const e = errors[row.key] ?? {};
          const at = `${id}-${row.key}`;
          return (
            <div className="ai-row__grid">
              <RowInput id={`${at}-name`} label="Имя в шаблоне" value={row.name} onChange={(name) => update({ name })} error={e.name} placeholder="topic" />
              <RowInput id={`${at}-label`} label="Подпись" value={row.label} onChange={(label) => update({ label })} error={e.label} placeholder="Тема" />
              <RowInput id={`${at}-placeholder`} label="Подсказка в поле" value={row.placeholder} onChange={(placeholder) => update({ placeholder })} error={e.placeholder} />
              <RowInput id={`${at}-max`} label="Длина, символов" value={row.max_length} onChange={(max_length) => update({ max_length })} error={e.max_length} inputMode="numeric" />
              <div className="ai-row__checks">
                <RowCheck id={`${at}-required`} label="Обязательное" checked={row.required} onChange={(required) => update({ required })} />
                <RowCheck id={`${at}-multiline`} label="Многострочное" checked={row.multiline} onChange={(multiline) => update({ multiline })} />
              </div>
            </div>
          );
        }}
      </RowList>
      {(missing.length > 0 || unused.length > 0) && (
        <div className="ai-template-check" role="status">
          {missing.map((name) => (
            <p key={name}>
              В шаблоне есть <code>{`{${name}}`}</code>, а поля нет.{' '}
              {rows.length < MAX_FIELDS && (
                <Button variant="link" onClick={() => onChange([...rows, newField(name)])}>
                  Добавить поле {name}
                </Button>
              )}
            </p>
          ))}
          {unused.map((r) => (
            <p key={r.key}>
              Поле <code>{r.name}</code> не используется в шаблоне: добавьте <code>{`{${r.name.trim()}}`}</code> или удалите поле.
            </p>
          ))}
        </div>
      )}
    </>
  );
}
