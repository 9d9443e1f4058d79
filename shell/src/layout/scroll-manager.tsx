import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

function scrollToHash(hash: string): boolean {
  const id = decodeURIComponent(hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return false;
  target.scrollIntoView({ behavior: 'smooth', block: 'start' });
  return true;
}

/**
 * Scroll rules of SPEC.md §2: a hash link scrolls smoothly to its element, "#" scrolls to the top, and a path
 * change scrolls to the top. "#" never reaches the router (it is an empty hash), so it is caught on click.
 */
export function ScrollManager() {
  const location = useLocation();
  const previousPath = useRef(location.pathname);

  useEffect(() => {
    const pathChanged = previousPath.current !== location.pathname;
    previousPath.current = location.pathname;
    if (location.hash && scrollToHash(location.hash)) return;
    if (pathChanged) window.scrollTo({ top: 0, left: 0 });
  }, [location.pathname, location.hash, location.key]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
        return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      const href = anchor?.getAttribute('href');
      if (href === '#') {
        event.preventDefault();
        window.scrollTo({ top: 0, behavior: 'smooth' });
      } else if (href?.startsWith('#') && href.length > 1) {
        // Same-page hash links: smooth scroll and keep the hash in the address bar.
        if (scrollToHash(href)) {
          event.preventDefault();
          window.history.pushState(window.history.state, '', href);
        }
      }
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);

  return null;
}
