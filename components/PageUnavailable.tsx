'use client';
/**
 * What a visitor sees when a page fails on the server (app/error.tsx, and app/global-error.tsx when the
 * root layout itself failed): what most likely happened, that it was not their fault, and a way to try
 * again. Nothing from the error itself is shown; the digest matches the server's log line, so support
 * can find what happened. The likeliest cause is the database being briefly unreachable, and the server
 * recovers by itself, so "Try again" (retry: it fetches the page from the server again) is the useful
 * action.
 */
import type { ReactNode } from 'react';

export function PageUnavailable({
  heading,
  digest,
  retry,
  home,
}: {
  heading: string;
  digest?: string;
  retry: () => void;
  home: ReactNode;
}) {
  return (
    <div role="alert">
      <h1>{heading}</h1>
      <p>
        ChemFlow could not load this page, most likely because its database is briefly unreachable. It was not your
        fault. Nothing needs to be done on your side: try again in a moment.
      </p>
      {digest ? (
        <p className="muted">
          If it keeps happening, contact support with reference <code>{digest}</code> so they can find what happened.
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => retry()}>
          Try again
        </button>
        {home}
      </div>
    </div>
  );
}
