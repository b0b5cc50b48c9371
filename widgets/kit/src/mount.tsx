import { StrictMode, startTransition, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { safeParse, type $ZodType, type output } from 'zod/v4/core';
import { errorMessage } from './errors.ts';
import { QueryProvider } from './query.tsx';

/** What every widget exposes as `./mount`. */
export type MountFn = (el: HTMLElement, props: unknown) => () => void;

/**
 * Builds a widget's `mount(el, props)`: props are checked with the widget's schema from the
 * contracts; bad props render a clear error instead of a blank space. Every widget of a page
 * shares the page's query client.
 */
export function createMount<S extends $ZodType>(schema: S, Component: ComponentType<output<S>>): MountFn {
  return (el, props) => {
    const root = createRoot(el);
    const parsed = safeParse(schema, props);
    if (parsed.success) {
      // As a transition, React renders the widget in slices of a few milliseconds and lets the
      // browser run between them; otherwise each widget's first render is one long task, and a
      // page mounting several of them on a slow phone blocks its main thread that long.
      startTransition(() => {
        root.render(
          <StrictMode>
            <QueryProvider>
              <Component {...(parsed.data as output<S> & object)} />
            </QueryProvider>
          </StrictMode>,
        );
      });
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
