'use client';
/**
 * The browser's own note that the session has ended: a server action answered "signed out", so the
 * header stops showing the account (the page around it stays, with what was typed) until the next
 * page load, which the server renders with the session as it is.
 */
import { useSyncExternalStore } from 'react';

let ended = false;
const listeners = new Set<() => void>();

export function markSessionEnded(): void {
  if (ended) return;
  ended = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionEnded(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => ended,
    () => false,
  );
}
