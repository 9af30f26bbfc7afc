/**
 * The link to a key's call log as CSV for the chosen range, and how far back the log reaches: calls are
 * kept CALL_LOG_RETENTION_DAYS, so a longer range's file starts at the retention limit.
 */
import { formatCount } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';

export function CallLogExport({ href, range }: { href: string; range: KeyReport['range'] }) {
  const { days, callLogRetentionDays: kept } = range;
  return (
    <>
      <p>
        <a href={`${href}?range=${days}`} download>
          Download the calls of the last {days} days (CSV)
        </a>{' '}
        <span className="muted">
          one line per call: time (UTC), tool, outcome, error code, latency in ms and the key it was made with.
        </span>
      </p>
      {days > kept ? (
        <p className="alert" role="note">
          The call log keeps each call for {formatCount(kept)} days, so the CSV covers only the last {formatCount(kept)}{' '}
          days of this range. The chart and the table count all {days} days.
        </p>
      ) : (
        <p className="muted">The call log keeps each call for {formatCount(kept)} days.</p>
      )}
    </>
  );
}
