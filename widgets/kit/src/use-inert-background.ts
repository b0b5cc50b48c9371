import { useEffect, type RefObject } from 'react';

/**
 * While `active`, everything on the page but `ref`'s element is inert and the page does not
 * scroll: a blocking overlay must not leave the page behind it reachable by Tab.
 */
export function useInertBackground(ref: RefObject<HTMLElement | null>, active = true): void {
  useEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    const made: Element[] = [];
    for (let node: Element = el; node.parentElement && node !== document.body; node = node.parentElement) {
      for (const sibling of Array.from(node.parentElement.children)) {
        if (sibling === node || sibling.hasAttribute('inert') || sibling instanceof HTMLScriptElement || sibling instanceof HTMLStyleElement) continue;
        sibling.setAttribute('inert', '');
        made.push(sibling);
      }
    }
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      for (const sibling of made) sibling.removeAttribute('inert');
      document.body.style.overflow = overflow;
    };
  }, [ref, active]);
}
