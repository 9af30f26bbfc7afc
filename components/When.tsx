/**
 * An instant as "2026-11-26 14:03 UTC", optionally followed by "(3 days ago)"; `empty` stands in when
 * there is none. The relative part depends on the clock, so it may differ between server and browser render.
 */
import { formatRelative, formatUtc, type Instant } from '@/lib/portal/format.ts';

export function When({
  date,
  relative = false,
  empty = '—',
}: {
  date: Instant | null | undefined;
  relative?: boolean;
  empty?: string;
}) {
  if (!date) return <>{empty}</>;
  return (
    <>
      <time dateTime={new Date(date).toISOString()} title={formatUtc(date, { seconds: true })}>
        {formatUtc(date)}
      </time>
      {relative && (
        <>
          {' '}
          <span className="muted" suppressHydrationWarning>
            ({formatRelative(date)})
          </span>
        </>
      )}
    </>
  );
}
