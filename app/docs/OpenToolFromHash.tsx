'use client';
/** Opens the tool a link points at (/docs#service_eos_state), since a closed <details> hides its content. */
import { useEffect } from 'react';

export function OpenToolFromHash() {
  useEffect(() => {
    const open = () => {
      const target = window.location.hash
        ? document.getElementById(decodeURIComponent(window.location.hash.slice(1)))
        : null;
      if (target instanceof HTMLDetailsElement) {
        target.open = true;
        target.scrollIntoView();
      }
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);
  return null;
}
