import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignedInOnly } from '@/components/forms/SignedInOnly.tsx';
import { NavLinks } from '@/components/NavLinks.tsx';
import { isStaff } from '@/lib/portal/access.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';
import { signOutAction } from './(auth)/actions.ts';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'ChemFlow', template: '%s · ChemFlow' },
  description: 'An MCP server with chemistry tools, and the portal for its API keys.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  const links = viewer
    ? [
        { href: '/keys', label: 'Keys' },
        { href: '/usage', label: 'Usage' },
        { href: '/upgrade', label: 'Upgrade to Pro' },
        { href: '/docs', label: 'Connect & docs' },
        ...(isStaff(viewer) ? [{ href: '/support', label: 'Support' }] : []),
        ...(viewer.role === 'admin' ? [{ href: '/admin/users', label: 'Users' }] : []),
      ]
    : [{ href: '/docs', label: 'Connect & docs' }];
  const signInLinks = (
    <>
      <Link href="/signin">Sign in</Link>
      <Link href="/signup" className="button">
        Sign up
      </Link>
    </>
  );
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#content">
          Skip to content
        </a>
        <header className="site-header">
          <div className="site-header-inner">
            <Link href="/" className="brand">
              ChemFlow
            </Link>
            <NavLinks links={links} />
            <div className="who">
              {viewer ? (
                <SignedInOnly signedOut={signInLinks}>
                  <Link href="/account" title="Your account and password">
                    {viewer.email}
                    {viewer.role !== 'developer' ? ` (${viewer.role})` : ''}
                  </Link>
                  <form action={signOutAction}>
                    <button
                      type="submit"
                      className="secondary"
                      title="Ends every session of this account, on every device"
                    >
                      Sign out
                    </button>
                  </form>
                </SignedInOnly>
              ) : (
                signInLinks
              )}
            </div>
          </div>
        </header>
        <main id="content">{children}</main>
      </body>
    </html>
  );
}
