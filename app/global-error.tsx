'use client';
/**
 * The last-resort error page, for failures in the root layout itself (it reads the signed-in viewer from
 * the database on every page, so a database outage lands here for signed-in visitors). It replaces the
 * root layout, so it brings its own html, body and stylesheet. Same wording and actions as error.tsx.
 */
import './globals.css';

export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <html lang="en">
      <head>
        <title>Unavailable right now · ChemFlow</title>
      </head>
      <body>
        <main id="content">
          <div role="alert">
            <h1>ChemFlow is unavailable right now</h1>
            <p>
              The page could not be loaded, most likely because ChemFlow&apos;s database is briefly unreachable. It was
              not your fault. Nothing needs to be done on your side: try again in a moment.
            </p>
            {error.digest ? (
              <p className="muted">
                If it keeps happening, contact support with reference <code>{error.digest}</code> so they can find what happened.
              </p>
            ) : null}
            <div className="actions">
              <button type="button" onClick={() => retry()}>Try again</button>
              {/* A plain link: a full page load, in case the client-side app is what failed. */}
              <a href="/">Home</a>
            </div>
          </div>
        </main>
      </body>
    </html>
  );
}
