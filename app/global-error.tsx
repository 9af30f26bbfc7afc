'use client';
/**
 * The last-resort error page, for failures in the root layout itself (it reads the signed-in viewer from
 * the database on every page, so a database outage lands here for signed-in visitors). It replaces the
 * root layout, so it brings its own html, body and stylesheet.
 */
import { PageUnavailable } from '@/components/PageUnavailable.tsx';
import './globals.css';

export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <html lang="en">
      <head>
        <title>Unavailable right now · ChemFlow</title>
      </head>
      <body>
        <main id="content">
          {/* A plain link: a full page load, in case the client-side app is what failed. */}
          <PageUnavailable
            heading="ChemFlow is unavailable right now"
            digest={error.digest}
            retry={retry}
            home={<a href="/">Home</a>}
          />
        </main>
      </body>
    </html>
  );
}
