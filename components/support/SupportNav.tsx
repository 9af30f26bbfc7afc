'use client';
/** The staff sub-navigation shared by the /support pages; key pages count as part of Search. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/support', label: 'Search', also: '/support/keys/' },
  { href: '/support/leaks', label: 'Leaked keys' },
  { href: '/support/upgrades', label: 'Upgrade requests' },
  { href: '/support/audit', label: 'Audit trail' },
];

export function SupportNav() {
  const path = usePathname();
  return (
    <nav className="subnav" aria-label="Support console">
      {LINKS.map(({ href, label, also }) => (
        <Link
          key={href}
          href={href}
          aria-current={path === href || (also && path.startsWith(also)) ? 'page' : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}
