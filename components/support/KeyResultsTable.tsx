/** Keys found by a support search: enough to recognise the right one, and a link to it. */
import Link from 'next/link';
import { QuotaMeter } from '@/components/QuotaMeter.tsx';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { When } from '@/components/When.tsx';
import type { KeySearch } from '@/lib/portal/support.ts';

export function KeyResultsTable({ results }: { results: KeySearch['results'] }) {
  return (
    <ScrollRegion label="Keys found">
      <table>
        <caption className="muted" style={{ textAlign: 'left', padding: '0.5rem 0.75rem' }}>
          {results.length} key{results.length === 1 ? '' : 's'} found
        </caption>
        <thead>
          <tr>
            <th>Key</th>
            <th>Name</th>
            <th>Owner</th>
            <th>Tier</th>
            <th>Status</th>
            <th>Today</th>
          </tr>
        </thead>
        <tbody>
          {results.map((key) => (
            <tr key={key.id}>
              <td>
                <Link href={`/support/keys/${key.id}`} aria-label={`Open key ${key.display} (${key.name})`}>
                  <code>{key.display}</code>
                </Link>
              </td>
              <td>{key.name}</td>
              <td>{key.owner}</td>
              <td>{key.tier}</td>
              <td>
                <StatusBadge status={key.status} />
                {key.worksUntil && (
                  <>
                    {' '}
                    works until <When date={key.worksUntil} />
                  </>
                )}
              </td>
              <td>
                <QuotaMeter used={key.usedToday} quota={key.dailyQuota} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
