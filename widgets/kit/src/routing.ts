import { useCallback, useEffect, useState, type MouseEvent } from 'react';

/*
 * Client routes of a widget that owns several screens under one page (the catalogue, the admin
 * panel): the address is read on load and on `popstate`, links are real `<a href>`s whose plain
 * clicks are `pushState`d. Not a host module: each such widget bundles these few lines.
 */

export interface Location {
  pathname: string;
  search: string;
}

const read = (): Location => ({ pathname: window.location.pathname, search: window.location.search });

/** The page's address, kept in step with the browser's back and forward, and a way to change it. */
export function useLocation(): { location: Location; navigate: (href: string, options?: { replace?: boolean }) => void } {
  const [location, setLocation] = useState<Location>(read);
  useEffect(() => {
    const onPop = () => setLocation(read());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((href: string, options: { replace?: boolean } = {}) => {
    if (options.replace) window.history.replaceState(null, '', href);
    else window.history.pushState(null, '', href);
    setLocation(read());
    if (!options.replace) (window as Partial<Pick<Window, 'scrollTo'>>).scrollTo?.({ top: 0 });
  }, []);
  return { location, navigate };
}

/** A click on a link the widget routes itself; a click with a modifier (new tab) or another button goes to the browser. */
export function routedClick(navigate: (href: string) => void, href: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
}
