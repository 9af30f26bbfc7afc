import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { AuditTable } from '@/components/support/AuditTable.tsx';
import { LiveKeyUsage } from '@/components/usage/LiveKeyUsage.tsx';
import { When } from '@/components/When.tsx';
import { getDb } from '@/lib/db/client.ts';
import { formatCount, formatRate } from '@/lib/portal/format.ts';
import { staffKeyDetail } from '@/lib/portal/support.ts';
import { orNotFound, requireStaffViewer } from '@/lib/portal/viewer.ts';
import { parseUsageRange } from '@/lib/usage/range.ts';
import { KeyActions } from './KeyActions.tsx';

export const metadata: Metadata = { title: 'Key (support)' };

export default async function SupportKeyPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ range?: string | string[] }>;
}) {
  const { id } = await params;
  const range = parseUsageRange((await searchParams).range);
  const viewer = await requireStaffViewer(`/support/keys/${encodeURIComponent(id)}`);
  const detail = await orNotFound(staffKeyDetail(getDb(), viewer, id, 1, range));
  const { report: r, overrides } = detail;
  const tier = detail.tiers.find((t) => t.id === r.tier);

  return (
    <>
      <p>
        <Link href={`/support?q=${encodeURIComponent(r.owner)}`}>← Keys of {r.owner}</Link>
      </p>
      <h1>
        <code>{r.display}</code> <span className="muted">“{r.name}”</span>
      </h1>
      <div className="grid">
        <section className="panel" aria-label="Key facts">
          <dl className="facts">
            <dt>Owner</dt>
            <dd>
              <Link href={`/support?q=${encodeURIComponent(r.owner)}`}>{r.owner}</Link>
            </dd>
            <dt>Status</dt>
            <dd>
              {r.worksUntil ? (
                <>
                  <StatusBadge status={r.status} /> works until <When date={r.worksUntil} relative />, then stops
                  (reissue grace period)
                </>
              ) : (
                <>
                  <StatusBadge status={r.status} />
                  {(r.status === 'disabled' || r.status === 'leaked') && r.disabledAt ? (
                    <>
                      {' '}
                      since <When date={r.disabledAt} relative />
                      {r.disabledReason ? <>: {r.disabledReason}</> : null}
                    </>
                  ) : null}
                </>
              )}
            </dd>
            <dt>Tier</dt>
            <dd>{tier?.name ?? r.tier}</dd>
            <dt>Daily quota</dt>
            <dd>
              {formatCount(r.dailyQuota)} calls/day{' '}
              {overrides.dailyQuota === null ? (
                <span className="muted">(tier default)</span>
              ) : (
                <span className="muted">(set for this key)</span>
              )}
            </dd>
            <dt>Per-second limit</dt>
            <dd>
              {formatRate(r.ratePerSecond)}{' '}
              {overrides.ratePerSecond === null ? (
                <span className="muted">(tier default)</span>
              ) : (
                <span className="muted">(set for this key)</span>
              )}
            </dd>
            <dt>Today</dt>
            <dd>
              {formatCount(r.usedToday)} used, {formatCount(r.remainingToday)} left{' '}
              <span className="muted">
                (resets <When date={r.quotaResetsAt} relative />)
              </span>
            </dd>
            <dt>Expires</dt>
            <dd>
              <When date={r.expiresAt} relative empty="never" />
            </dd>
            <dt>Created</dt>
            <dd>
              <When date={r.createdAt} relative />
            </dd>
            <dt>Last used</dt>
            <dd>
              <When date={r.lastUsedAt} relative empty="never" />
            </dd>
            {r.replacedById ? (
              <>
                <dt>Replaced by</dt>
                <dd>
                  <Link href={`/support/keys/${r.replacedById}`}>the reissued key</Link>
                </dd>
              </>
            ) : null}
            {detail.replaces ? (
              <>
                <dt>Replaces</dt>
                <dd>
                  <Link href={`/support/keys/${detail.replaces.id}`}>
                    <code>{detail.replaces.display}</code>
                  </Link>
                  {r.predecessor ? (
                    <>
                      , whose secret still works until <When date={r.predecessor.worksUntil} relative />
                    </>
                  ) : null}
                </dd>
              </>
            ) : null}
            <dt>Key id</dt>
            <dd>
              <code>{r.id}</code>
            </dd>
          </dl>
        </section>
      </div>

      <h2>Actions</h2>
      <KeyActions
        keyId={r.id}
        display={r.display}
        owner={r.owner}
        status={r.status}
        inGrace={r.worksUntil !== null}
        predecessor={r.predecessor}
        settings={{
          tierId: overrides.tierId,
          dailyQuota: overrides.dailyQuota,
          ratePerSecond: overrides.ratePerSecond,
          expiresOn: overrides.expiresAt?.toISOString().slice(0, 10) ?? '',
        }}
        tiers={detail.tiers}
      />

      <LiveKeyUsage
        initial={r}
        endpoint={`/api/support/keys/${encodeURIComponent(r.id)}/usage?range=${range}`}
        callLogCsv={`/api/support/keys/${encodeURIComponent(r.id)}/calls.csv`}
      />

      <h2>Audit trail of this key</h2>
      <AuditTable
        events={detail.audit.events}
        caption={`${detail.audit.total} event${detail.audit.total === 1 ? '' : 's'}, newest first`}
      />
      {detail.audit.pages > 1 ? (
        <p>
          <Link href={`/support/audit?key=${r.id}`}>All {detail.audit.total} events in the audit trail</Link>
        </p>
      ) : null}
    </>
  );
}
