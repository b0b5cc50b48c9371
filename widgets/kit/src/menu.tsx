import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

/** A menu button (Radix Dropdown Menu: arrows, typeahead, Escape, focus back on the button), drawn with the kit's `.menu` styles. */
export function Menu({ trigger, label, items }: { trigger: ReactNode; label: string; items: readonly MenuItem[] }) {
  return (
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger className="btn btn-secondary menu__trigger" aria-label={label}>
        {trigger}
      </RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className="menu" align="end" sideOffset={6}>
          {items.map((item) => (
            <RadixMenu.Item key={item.label} className={item.danger ? 'menu__item menu__item--danger' : 'menu__item'} disabled={item.disabled} onSelect={item.onSelect}>
              {item.label}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
