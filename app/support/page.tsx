import type { Metadata } from 'next';
import Link from 'next/link';
import { KeyResultsTable } from '@/components/support/KeyResultsTable.tsx';
import { getDb } from '@/lib/db/client.ts';
import { PortalInputError } from '@/lib/portal/access.ts';
import { type KeySearch, looksLikeSecret, searchKeys } from '@/lib/portal/support.ts';
import { orNotFound, requireStaffViewer } from '@/lib/portal/viewer.ts';
import { SearchForm } from './SearchForm.tsx';

export const metadata: Metadata = { title: 'Support' };

const KIND_TEXT: Record<KeySearch['kind'], string> = {
  secret: 'the pasted secret',
  display: 'display form',
  four: 'first or last 4 characters, or owner email',
  email: 'owner email',
};

export default async function SupportSearchPage({
  searchParams,
}: {
  searchParams: Promise<{ q?: string; match?: string }>;
}) {
  const viewer = await requireStaffViewer('/support');
  const params = await searchParams;
  // A secret never arrives here by URL (the form posts it); refuse to show one that was typed into the address bar.
  const q = typeof params.q === 'string' && !looksLikeSecret(params.q) ? params.q.trim() : '';
  const match = typeof params.match === 'string' ? params.match : '';

  let search: KeySearch | null = null;
  let error: string | null = null;
  if (q || match) {
    try {
      search = await orNotFound(searchKeys(getDb(), viewer, match || q));
    } catch (caught) {
      if (!(caught instanceof PortalInputError)) throw caught;
      error = caught.message;
    }
  }

  return (
    <>
      <h1>Support console</h1>
      <p className="muted">
        Find a customer’s key, then disable, re-enable, reissue or change its limits. A pasted secret is matched by its
        hash and never shown.
      </p>
      <SearchForm key={q} initialQuery={q} />
      {error ? (
        <p className="alert error" role="alert">
          {error}
        </p>
      ) : null}
      {search ? (
        <section aria-label="Search results">
          <h2>
            {match ? (
              'The key of the pasted secret'
            ) : (
              <>
                Results for “{q}” <span className="muted">(by {KIND_TEXT[search.kind]})</span>
              </>
            )}
          </h2>
          {search.results.length ? (
            <>
              <KeyResultsTable results={search.results} />
              {search.truncated ? (
                <p className="muted">Showing the newest {search.results.length}; narrow the search to see others.</p>
              ) : null}
            </>
          ) : (
            <p className="empty">
              No matches. Check the characters (keys are case-sensitive), try the owner’s email, or paste the whole
              secret.
            </p>
          )}
        </section>
      ) : (
        <p className="muted">
          Leaked many keys at once? Use <Link href="/support/leaks">Leaked keys</Link>.
        </p>
      )}
    </>
  );
}
