'use client';
/** The one search box of the support console (a server action, so a pasted secret stays out of the URL). */
import { useActionState } from 'react';
import { FormMessage } from '@/components/FormMessage.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { searchAction } from './actions.ts';

export function SearchForm({ initialQuery }: { initialQuery: string }) {
  const [state, formAction] = useActionState(searchAction, null);
  return (
    <search>
      <form action={formAction} className="search-form">
        <label>
          Find a key
          <span className="hint">
            cf_abcd…wxyz, its first or last 4 characters, a pasted secret, or the owner’s email
          </span>
          <input name="q" type="search" defaultValue={initialQuery} autoComplete="off" spellCheck={false} required />
        </label>
        <SubmitButton pendingText="Searching…">Search</SubmitButton>
        <div style={{ flexBasis: '100%' }}>
          <FormMessage state={state && !state.ok ? state : null} />
        </div>
      </form>
    </search>
  );
}
