'use client';
/**
 * The choice of 7, 30 or 90 days as links to ?range=N on the same page: the view is linkable, survives a
 * reload and works without JavaScript; the current choice is marked for screen readers too. With
 * JavaScript the switch is a client navigation that keeps the scroll position: the choice sits halfway
 * down the page, by the chart it changes, and a jump to the top would lose it.
 */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { USAGE_RANGES, type UsageRange } from '@/lib/usage/range.ts';

export function RangeChoice({ current }: { current: UsageRange }) {
  const path = usePathname();
  return (
    <nav className="range-choice" aria-label="Days shown">
      {USAGE_RANGES.map((days) => (
        <Link
          key={days}
          href={`${path}?range=${days}`}
          scroll={false}
          aria-current={days === current ? 'page' : undefined}
        >
          {days} days
        </Link>
      ))}
    </nav>
  );
}
