/**
 * The most recent calls, newest first: when, which tool, how it went, how long it took and why it failed.
 * A call made with another secret of the key's reissue chain says which, so an owner sees an old secret
 * still being used.
 */

import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { formatCount, formatRelative, formatUtc } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';
import { OutcomeBadge } from './OutcomeBadge.tsx';

/** Sub-10 ms latencies keep a decimal: "0.8 ms" says more than "1 ms". */
const formatLatency = (ms: number) => `${ms < 10 ? ms.toFixed(1) : formatCount(Math.round(ms))} ms`;

export function LastCallsTable({ calls }: { calls: KeyReport['lastCalls'] }) {
  return (
    <ScrollRegion label="Last calls">
      <table>
        <caption className="visually-hidden">Last calls</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Tool</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Latency
            </th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <tr key={call.requestId}>
              <td className="time">
                <time dateTime={call.createdAt}>{formatUtc(call.createdAt, { seconds: true })}</time>
                <span className="when muted" suppressHydrationWarning>
                  {formatRelative(call.createdAt)}
                </span>
              </td>
              <td>
                <code>{call.tool}</code>
                {call.otherKey && (
                  <span className="muted">
                    {' '}
                    with <code>{call.otherKey.display}</code>
                  </span>
                )}
              </td>
              <td>
                <OutcomeBadge outcome={call.outcome} />
              </td>
              <td className="num">{formatLatency(call.latencyMs)}</td>
              <td>{call.errorCode ? <code>{call.errorCode}</code> : <span className="muted">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
