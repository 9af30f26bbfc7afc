/**
 * Calls refused because a secret of this key no longer works (disabled, expired, replaced): how many, and
 * the last few with when, from which address and why. A secret still being tried after it was turned off
 * is the sign of a leak (or of a client nobody switched over), so owner and support both see it. Renders
 * a KeyReport only: LiveKeyUsage keeps it current.
 */
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { formatCalls, formatCount, formatRelative, formatUtc } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';
import './usage.css';

const WHY: Record<KeyReport['refused']['recent'][number]['reason'], string> = {
  disabled: 'key disabled',
  expired: 'key expired',
  replaced: 'key replaced by a reissue',
};

export function RefusedCalls({ report }: { report: KeyReport }) {
  const { refused } = report;
  // A replaced key still in its grace period works: nothing has been refused for it yet.
  const stopped = report.status !== 'active' && !report.worksUntil;
  if (refused.total === 0 && !stopped) return null;
  const last = refused.recent[0];
  return (
    // In a panel grid of its own: it comes and goes with the key's state, above the usage panels.
    <div className="usage-panels">
      <section className="panel" aria-labelledby="refused-calls-title">
        <h2 id="refused-calls-title">Refused calls</h2>
        {refused.total === 0 ? (
          <p>No call has been made with this key's secret since it stopped working.</p>
        ) : (
          <>
            <p className="refused-summary" suppressHydrationWarning>
              <strong>
                {formatCalls(refused.total)} refused since {refused.since}
              </strong>
              {refused.today > 0 && <> ({formatCount(refused.today)} today)</>}
              {last && (
                <>
                  , the last {formatRelative(last.at)} from <code>{last.clientAddress ?? 'an unknown address'}</code>
                </>
              )}
              .
            </p>
            <p className="muted">
              Someone still holds a secret of this key that no longer works. If it is not one of your clients, the
              secret has leaked: it stays refused, and its calls are counted here.
            </p>
            <ScrollRegion label="Last refused calls">
              <table>
                <caption className="visually-hidden">Last refused calls, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Client address</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {refused.recent.map((call) => (
                    <tr key={call.id}>
                      <td className="time">
                        <time dateTime={call.at}>{formatUtc(call.at, { seconds: true })}</time>
                        <span className="when muted" suppressHydrationWarning>
                          {formatRelative(call.at)}
                        </span>
                      </td>
                      <td>
                        <code>{call.clientAddress ?? 'unknown'}</code>
                      </td>
                      <td>
                        {WHY[call.reason]}
                        {call.key && (
                          <span className="muted">
                            {' '}
                            (<code>{call.key.display}</code>)
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </>
        )}
      </section>
    </div>
  );
}
