'use client';
/**
 * The error boundary for every page below the root layout: a plain apology and a way to retry. Nothing
 * from the error itself is shown (in production Next replaces server messages anyway); only the digest,
 * which matches the server's log line, is given as a reference for support. The likeliest cause of a
 * page failing is the database being briefly unreachable; the server recovers by itself, so "Try again"
 * (retry: it fetches the page from the server again) is the useful action.
 */
import Link from 'next/link';

export default function ErrorPage({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <div role="alert">
      <h1>This page is unavailable right now</h1>
      <p>
        ChemFlow could not load this page, most likely because its database is briefly unreachable. It was not
        your fault. Nothing needs to be done on your side: try again in a moment.
      </p>
      {error.digest ? (
        <p className="muted">
          If it keeps happening, contact support with reference <code>{error.digest}</code> so they can find what happened.
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => retry()}>Try again</button>
        <Link href="/">Home</Link>
      </div>
    </div>
  );
}
