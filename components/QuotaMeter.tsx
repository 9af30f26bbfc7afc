/** Calls used against the daily quota: "12 / 1,000 calls" over a progress bar (red once it is used up). */
import { formatCalls, formatCount } from '@/lib/portal/format.ts';
import './quota-meter.css';

export function QuotaMeter({ used, quota }: { used: number; quota: number }) {
  const share = quota > 0 ? Math.min(1, used / quota) : 1;
  const full = used >= quota;
  return (
    <div className="quota-meter">
      <span className="quota-meter-text">
        {formatCount(used)} / {formatCalls(quota)}
      </span>
      <div
        className={`progress${full ? ' full' : ''}`}
        role="progressbar"
        aria-label="Daily quota used"
        aria-valuemin={0}
        aria-valuemax={quota}
        aria-valuenow={Math.min(used, quota)}
        aria-valuetext={`${formatCount(used)} of ${formatCalls(quota)} used today`}
      >
        <span style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}
