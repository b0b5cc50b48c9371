import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

/** Which sides of a scroller have more to show. */
export interface Overflow {
  left: boolean;
  right: boolean;
}

/** Follows what a horizontal scroller hides on each side, as its size, its content and its scroll change. */
export function useOverflow<E extends HTMLElement>(): [RefObject<E | null>, Overflow] {
  const ref = useRef<E>(null);
  const [overflow, setOverflow] = useState<Overflow>({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const hidden = el.scrollWidth - el.clientWidth;
      const next = { left: hidden > 1 && el.scrollLeft > 1, right: hidden > 1 && el.scrollLeft < hidden - 1 };
      setOverflow((prev) => (prev.left === next.left && prev.right === next.right ? prev : next));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    observer?.observe(el);
    for (const child of Array.from(el.children)) observer?.observe(child);
    // Rows arriving change the content's width without resizing the scroller's first child in every browser.
    const mutations = typeof MutationObserver === 'function' ? new MutationObserver(update) : null;
    mutations?.observe(el, { childList: true, subtree: true });
    return () => {
      el.removeEventListener('scroll', update);
      observer?.disconnect();
      mutations?.disconnect();
    };
  }, []);
  return [ref, overflow];
}

/**
 * A table wider than its place: it scrolls sideways inside its frame, never cut off silently.
 * While something is out of view a line above it says so, the hidden side is shaded, and the
 * frame is a focusable region (arrow keys scroll it).
 */
export function ScrollArea({ label, className = 'admin-table__wrap', children }: { label: string; className?: string; children: ReactNode }) {
  const hintId = useId();
  const [ref, overflow] = useOverflow<HTMLDivElement>();
  const wide = overflow.left || overflow.right;
  return (
    <div className={`admin-scroll${overflow.left ? ' is-left' : ''}${overflow.right ? ' is-right' : ''}`}>
      {wide && (
        <p className="admin-scroll__hint" id={hintId}>
          {overflow.right ? 'Таблица шире экрана: прокрутите её вбок →' : '← Таблица шире экрана: её начало слева'}
        </p>
      )}
      <div className="admin-scroll__frame">
        <div ref={ref} className={className} role={wide ? 'region' : undefined} aria-label={wide ? label : undefined} aria-describedby={wide ? hintId : undefined} tabIndex={wide ? 0 : undefined}>
          {children}
        </div>
      </div>
    </div>
  );
}
