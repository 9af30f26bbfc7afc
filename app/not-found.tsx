/** The 404 page, for unknown addresses and for anything the visitor may not see (never a 403). */
import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <div>
      <h1>Page not found</h1>
      <p>This page does not exist, or you do not have access to it.</p>
      <p className="muted">
        If you followed a link to a key, check that you are signed in with the account that owns it.
      </p>
      <div className="actions">
        <Link href="/" className="button">
          Home
        </Link>
        <Link href="/keys" className="button secondary">
          Your keys
        </Link>
        <Link href="/docs">Connect &amp; docs</Link>
      </div>
    </div>
  );
}
