import * as RadixSelect from '@radix-ui/react-select';
import { useId } from 'react';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

/** A labelled select (Radix Select: a listbox with arrows and typeahead), drawn with the kit's `.field` and `.select` styles. */
export function Select<T extends string>({ label, value, options, onChange, placeholder, disabled }: { label: string; value: T | undefined; options: readonly SelectOption<T>[]; onChange: (value: T) => void; placeholder?: string; disabled?: boolean }) {
  const labelId = useId();
  return (
    <div className="field">
      <span className="field__label" id={labelId}>
        {label}
      </span>
      <RadixSelect.Root value={value} onValueChange={(next) => onChange(next as T)} disabled={disabled}>
        <RadixSelect.Trigger className="field__input select__trigger" aria-labelledby={labelId}>
          <RadixSelect.Value placeholder={placeholder} />
          <RadixSelect.Icon className="select__icon">▾</RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className="select__content" position="popper" sideOffset={4}>
            <RadixSelect.Viewport>
              {options.map((option) => (
                <RadixSelect.Item key={option.value} value={option.value} className="select__item">
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </div>
  );
}
