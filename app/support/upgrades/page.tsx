import type { Metadata } from 'next';
import Link from 'next/link';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { When } from '@/components/When.tsx';
import { sourceLabel } from '@/lib/channels/labels.ts';
import { getDb } from '@/lib/db/client.ts';
import { formatCount } from '@/lib/portal/format.ts';
import { upgradeQueue } from '@/lib/portal/upgrades.ts';
import { orNotFound, requireStaffViewer } from '@/lib/portal/viewer.ts';
import { DecideForms } from './DecideForms.tsx';

export const metadata: Metadata = { title: 'Upgrade requests' };

export default async function UpgradeQueuePage() {
  const viewer = await requireStaffViewer('/support/upgrades');
  const { pending, pendingTotal, decided } = await orNotFound(upgradeQueue(getDb(), viewer));
  return (
    <>
      <h1>Upgrade requests</h1>
      <h2>
        Pending{' '}
        <span className="muted">
          ({pendingTotal > pending.length ? `showing the oldest ${pending.length} of ${pendingTotal}` : pending.length},
          oldest first)
        </span>
      </h2>
      {pending.length ? (
        pending.map((r) => (
          <article
            key={r.id}
            className="panel request-card"
            aria-label={`Request from ${r.requester} for ${r.key.display}`}
          >
            <div className="actions">
              <StatusBadge status={r.status} />
              <strong>{r.requester}</strong>
              <span>
                for{' '}
                <Link href={`/support/keys/${r.key.id}`}>
                  <code>{r.key.display}</code>
                </Link>{' '}
                “{r.key.name}”
              </span>
              <span className="muted">
                ({r.key.tier}, {r.key.status})
              </span>
            </div>
            <p className="muted">
              Asked <When date={r.createdAt} relative /> via {sourceLabel(r.channel)} · expects{' '}
              {formatCount(r.expectedDailyCalls)} calls/day · contact: {r.contact}
            </p>
            <p>{r.useCase}</p>
            <DecideForms requestId={r.id} label={`request from ${r.requester}`} />
          </article>
        ))
      ) : (
        <p className="empty">
          No pending requests. New ones appear here when developers ask for Pro on their Upgrade page.
        </p>
      )}

      <h2>Recent decisions</h2>
      {decided.length ? (
        <ScrollRegion label="Recent decisions">
          <table>
            <thead>
              <tr>
                <th>Decided</th>
                <th>Status</th>
                <th>Developer</th>
                <th>Key</th>
                <th className="num">Expected</th>
                <th>By</th>
                <th>Note</th>
              </tr>
            </thead>
            <tbody>
              {decided.map((r) => (
                <tr key={r.id}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <When date={r.decidedAt} />
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>{r.requester}</td>
                  <td>
                    <Link href={`/support/keys/${r.key.id}`}>
                      <code>{r.key.display}</code>
                    </Link>
                  </td>
                  <td className="num">{formatCount(r.expectedDailyCalls)} calls/day</td>
                  <td>{r.decidedBy ?? '—'}</td>
                  <td>{r.decisionNote ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <p className="empty">No decisions yet.</p>
      )}
    </>
  );
}
