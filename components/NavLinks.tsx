'use client';
/** The header's links, marking the current section for sighted and screen-reader users alike. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';

export function NavLinks({ links }: { links: { href: string; label: string }[] }) {
  const path = usePathname();
  return (
    <nav className="site-nav" aria-label="Main">
      {links.map(({ href, label }) => (
        <Link key={href} href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
