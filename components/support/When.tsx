/** A moment shown the same way everywhere in the support console: absolute UTC, plus relative when asked. */

export function utcText(date: Date | string): string {
  return `${new Date(date).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const UNITS: [number, string][] = [[86_400_000 * 365, 'year'], [86_400_000 * 30, 'month'], [86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];

/** "3 days ago", "in 2 hours", "just now". */
export function relativeText(date: Date | string, now = Date.now()): string {
  const delta = new Date(date).getTime() - now;
  const size = Math.abs(delta);
  const [unit, name] = UNITS.find(([ms]) => size >= ms) ?? [0, ''];
  if (!unit) return 'just now';
  const count = Math.floor(size / unit);
  const label = `${count} ${name}${count === 1 ? '' : 's'}`;
  return delta < 0 ? `${label} ago` : `in ${label}`;
}

export function When({ date, relative = false, empty = '—' }: { date: Date | string | null | undefined; relative?: boolean; empty?: string }) {
  if (!date) return <>{empty}</>;
  const iso = new Date(date).toISOString();
  return (
    <time dateTime={iso} title={iso}>
      {utcText(date)}
      {relative ? <span className="muted"> ({relativeText(date)})</span> : null}
    </time>
  );
}
