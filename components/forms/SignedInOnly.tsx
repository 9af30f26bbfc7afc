'use client';
/** The header's account part, replaced by `signedOut` (the sign-in links) once an action found the session ended. */
import type { ReactNode } from 'react';
import { useSessionEnded } from './session-ended.ts';

export function SignedInOnly({ children, signedOut }: { children: ReactNode; signedOut: ReactNode }) {
  return useSessionEnded() ? signedOut : children;
}
