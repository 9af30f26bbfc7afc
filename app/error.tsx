'use client';
/**
 * The error boundary for every page: a plain apology and a way to retry. Nothing from the error itself
 * is shown (in production Next replaces server messages anyway); only the digest, which matches the
 * server's log line, is given as a reference for support.
 */
import Link from 'next/link';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. This was not your fault. Try again; if it keeps happening, contact support.</p>
      {error.digest ? (
        <p className="muted">
          Reference number: <code>{error.digest}</code> (give it to support so they can find what happened).
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => reset()}>Try again</button>
        <Link href="/">Home</Link>
      </div>
    </div>
  );
}
