'use client';
/** The one search box of the support console (a server action, so a pasted secret stays out of the URL). */
import { useActionState } from 'react';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { searchAction } from './actions.ts';

export function SearchForm({ initialQuery }: { initialQuery: string }) {
  const [state, formAction] = useActionState(searchAction, null);
  return (
    <search>
      <ActionForm action={formAction} state={state} className="search-form">
        <label>
          Find a key
          <span className="hint">
            cf_abcd…wxyz, its first or last 4 characters, a pasted secret, or the owner’s email
          </span>
          <input name="q" type="search" defaultValue={initialQuery} autoComplete="off" spellCheck={false} required />
        </label>
        <SubmitButton pendingText="Searching…">Search</SubmitButton>
      </ActionForm>
    </search>
  );
}
