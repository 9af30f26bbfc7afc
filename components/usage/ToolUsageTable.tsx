/** Today's calls per tool with a totals row; failures and successes both count against the quota, rate-limited calls do not. */
import type { ToolUsage } from '@/lib/usage/queries.ts';
import { formatCount } from '@/lib/portal/format.ts';

export function ToolUsageTable({ today }: { today: ToolUsage[] }) {
  const total = today.reduce(
    (sum, t) => ({ successes: sum.successes + t.successes, failures: sum.failures + t.failures, rateLimited: sum.rateLimited + t.rateLimited }),
    { successes: 0, failures: 0, rateLimited: 0 },
  );
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Today&apos;s calls by tool</caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col" className="num">Successes</th>
            <th scope="col" className="num">Failures</th>
            <th scope="col" className="num">Rate-limited</th>
          </tr>
        </thead>
        <tbody>
          {today.map((t) => (
            <tr key={t.tool}>
              <th scope="row"><code>{t.tool}</code></th>
              <td className="num">{formatCount(t.successes)}</td>
              <td className="num">{formatCount(t.failures)}</td>
              <td className="num">{formatCount(t.rateLimited)}</td>
            </tr>
          ))}
        </tbody>
        {today.length > 1 && (
          <tfoot>
            <tr>
              <th scope="row">All tools</th>
              <td className="num">{formatCount(total.successes)}</td>
              <td className="num">{formatCount(total.failures)}</td>
              <td className="num">{formatCount(total.rateLimited)}</td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
