import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

export interface TabsProps<T extends string> {
  tabs: readonly { id: T; label: string }[];
  current: T;
  onChange: (id: T) => void;
  /** Accessible name of the tab list. */
  label: string;
  /** The current tab's panel. */
  children?: ReactNode;
}

/**
 * Tabs (Radix Tabs, as WAI-ARIA describes them: one Tab stop, arrows, Home and End move and
 * select), drawn with the kit's `.tabs` styles; `children` is the current tab's panel.
 */
export function Tabs<T extends string>({ tabs, current, onChange, label, children }: TabsProps<T>) {
  return (
    <RadixTabs.Root className="tabs-root" value={current} onValueChange={(value) => onChange(value as T)} activationMode="automatic">
      <RadixTabs.List className="tabs" aria-label={label}>
        {tabs.map((tab) => (
          <RadixTabs.Trigger key={tab.id} value={tab.id} className="tabs__tab">
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.id} value={tab.id} className="tabs__panel">
          {tab.id === current ? children : null}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
