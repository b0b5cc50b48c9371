import { useLayoutEffect } from 'react';
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { object, string } from 'zod/mini';
import { createMount } from './mount.tsx';

/** Keeps the thread busy for `ms`, as rendering a large widget on a slow phone does. */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

function Slow() {
  busy(10);
  return <span>часть</span>;
}

function Widget({ title, onCommit }: { title: string; onCommit: () => void }) {
  useLayoutEffect(onCommit, [onCommit]);
  return (
    <section>
      <h2>{title}</h2>
      {Array.from({ length: 12 }, (_, i) => (
        <Slow key={i} />
      ))}
    </section>
  );
}

// Mounting is what a page does, outside React's test helpers (`act` would render at once).
let actEnvironment: unknown;
beforeAll(() => {
  actEnvironment = (globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT;
  (globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = false;
});
afterAll(() => {
  (globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
});

describe('createMount', () => {
  it('renders a widget in slices, so the page runs other work before a long render is done', async () => {
    const events: string[] = [];
    const el = document.createElement('div');
    document.body.append(el);
    let committed: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (committed = resolve));
    const mount = createMount(object({ title: string() }), ({ title }) => (
      <Widget
        title={title}
        onCommit={() => {
          events.push('widget drawn');
          committed();
        }}
      />
    ));
    const unmount = mount(el, { title: 'Баланс' });
    // Another task the page has (a reply arriving, a tap): it must not wait ≥ 120 ms of rendering.
    setTimeout(() => events.push('other task'), 0);
    await done;
    expect(events).toEqual(['other task', 'widget drawn']);
    expect(el.querySelector('h2')?.textContent).toBe('Баланс');
    unmount();
  });

  it('draws a clear error instead of the widget when its props are wrong', async () => {
    const el = document.createElement('div');
    document.body.append(el);
    const unmount = createMount(object({ title: string() }), ({ title }) => <h2>{title}</h2>)(el, { title: 5 });
    await waitFor(() => expect(el.querySelector('[role="alert"]')?.textContent).toContain('Модуль страницы получил неверные параметры'));
    expect(el.querySelector('h2')).toBeNull();
    unmount();
  });
});
