import { useEffect, useRef } from 'react';

/**
 * A `<dialog>` shown modal for as long as its component is mounted (the captcha's challenge, the idle warning): the
 * page behind is inert and focus moves in. Returns the ref for the dialog element.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return ref;
}
