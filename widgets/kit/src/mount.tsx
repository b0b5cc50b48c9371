import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import type { z } from '@app/contracts';
import { errorMessage } from './errors.ts';

/** What every widget exposes as `./mount`. */
export type MountFn = (el: HTMLElement, props: unknown) => () => void;

/**
 * Builds a widget's `mount(el, props)`: props are checked with the widget's schema from the
 * contracts; bad props render a clear error instead of a blank space.
 */
export function createMount<S extends z.ZodType>(schema: S, Component: ComponentType<z.output<S>>): MountFn {
  return (el, props) => {
    const root = createRoot(el);
    const parsed = schema.safeParse(props);
    if (parsed.success) {
      root.render(
        <StrictMode>
          <Component {...(parsed.data as z.output<S> & object)} />
        </StrictMode>,
      );
    } else {
      const fields = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'props', [i.message]]));
      root.render(
        <div className="alert alert-error" role="alert">
          Модуль страницы получил неверные параметры: {errorMessage(fields)}
        </div>,
      );
    }
    return () => root.unmount();
  };
}
