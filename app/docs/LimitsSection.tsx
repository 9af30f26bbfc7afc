/** The limits table (from the Tier table), what counts as a call, and the rate-limit headers. */
import { config } from '@/lib/config.ts';
import { perDay, perSecond, type TierLimits } from './tiers.ts';

export function LimitsSection({ tiers }: { tiers: TierLimits[] }) {
  const zone = config().quotaTimeZone;
  return (
    <>
      <div className="table-wrap">
        <table className="cards" aria-label="Limits per tier">
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col" className="num">
                Per-second limit
              </th>
              <th scope="col" className="num">
                Daily quota
              </th>
              <th scope="col">For</th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((tier) => (
              <tr key={tier.id}>
                <th scope="row" className="key">
                  {tier.name}
                </th>
                <td className="num" data-label="Per-second limit">
                  {perSecond(tier)}
                </td>
                <td className="num" data-label="Daily quota">
                  {perDay(tier)}
                </td>
                <td data-label="For">{tier.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        A key can carry its own quota or rate, set by staff; your keys page shows the numbers that apply to each key.
      </p>
      <h3>What counts as a call</h3>
      <ul>
        <li>
          Only <code>tools/call</code> counts. <code>initialize</code>, <code>notifications/initialized</code> and{' '}
          <code>tools/list</code> are free and need no key.
        </li>
        <li>
          Every <code>tools/call</code> that passes the key check and the limits counts, including calls that end in a
          tool error (unknown tool, invalid arguments, unknown compound): they show as failures in your usage.
        </li>
        <li>
          Refused calls cost nothing: a 429 is recorded as rate-limited, and requests refused before the limits (bad
          JSON, a missing or invalid key, a <code>tools/call</code> without a tool name) are not counted.
        </li>
        <li>
          The per-second limit is a sliding window: a key with limit R is admitted at most R times in any 1,000 ms.
        </li>
        <li>The daily quota resets at midnight ({zone} calendar days).</li>
      </ul>
      <h3>Rate-limit headers</h3>
      <p>
        Every <code>tools/call</code> answer carries:
      </p>
      <dl className="facts">
        <dt>
          <code>X-RateLimit-Limit</code>
        </dt>
        <dd>the key&apos;s daily quota (calls/day)</dd>
        <dt>
          <code>X-RateLimit-Remaining</code>
        </dt>
        <dd>calls left today</dd>
        <dt>
          <code>X-RateLimit-Reset</code>
        </dt>
        <dd>
          when the limit that matters resets, in epoch seconds: the next quota-day midnight, or the end of the 1-second
          window after a per-second refusal
        </dd>
        <dt>
          <code>Retry-After</code>
        </dt>
        <dd>on a 429 only: whole seconds to wait</dd>
      </dl>
    </>
  );
}
