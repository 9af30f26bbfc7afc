'use client';
/**
 * A dialog's way back after signing in again: ActionForm's "Sign in again" returns to the page with
 * ?dialog=<name>, and the dialog of that name opens itself once on that page load (the parameter is
 * then dropped from the address, so a reload does not open it again).
 */
import { useEffect, useEffectEvent } from 'react';

export function useReopenAfterSignIn(name: string | undefined, open: () => void): void {
  const reopen = useEffectEvent(open);
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!name || url.searchParams.get('dialog') !== name) return;
    url.searchParams.delete('dialog');
    window.history.replaceState(null, '', url);
    reopen();
  }, [name]);
}
