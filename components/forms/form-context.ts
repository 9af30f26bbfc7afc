'use client';
/** What an ActionForm tells the fields inside it: the server's refusal, and where its messages go. */
import { createContext, useContext } from 'react';
import type { ActionRefusal } from '@/lib/portal/action-result.ts';

export interface FormContext {
  /** Prefix of the ids of the field messages (`${idPrefix}-${name}-error`). */
  idPrefix: string;
  refusal: ActionRefusal | null;
}

export const ActionFormContext = createContext<FormContext | null>(null);

export function useActionForm(): FormContext | null {
  return useContext(ActionFormContext);
}

export const fieldErrorId = (idPrefix: string, name: string) => `${idPrefix}-${name}-error`;
