/**
 * The choice of 7, 30 or 90 days as links to ?range=N on the same page: the view is linkable, survives a
 * reload and works without JavaScript; the current choice is marked for screen readers too.
 */
import { USAGE_RANGES, type UsageRange } from '@/lib/usage/range.ts';

export function RangeChoice({ current }: { current: UsageRange }) {
  return (
    <nav className="range-choice" aria-label="Days shown">
      {USAGE_RANGES.map((days) => (
        <a key={days} href={`?range=${days}`} aria-current={days === current ? 'page' : undefined}>
          {days} days
        </a>
      ))}
    </nav>
  );
}
