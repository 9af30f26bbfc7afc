/** Today's calls against the daily quota, as numbers and a bar. */
export function UsageMeter({ used, quota }: { used: number; quota: number }) {
  const share = quota > 0 ? Math.min(1, used / quota) : 1;
  return (
    <div className="usage-meter">
      <span>{used.toLocaleString('en-US')} / {quota.toLocaleString('en-US')} calls/day</span>
      <div className={`progress${share >= 1 ? ' full' : ''}`} role="progressbar" aria-label="Share of today's quota used" aria-valuemin={0} aria-valuemax={quota} aria-valuenow={used}>
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}
