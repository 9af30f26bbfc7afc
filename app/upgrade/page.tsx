import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { When } from '@/components/When.tsx';
import { sourceLabel } from '@/lib/channels/labels.ts';
import { getDb } from '@/lib/db/client.ts';
import { formatCount, formatRate } from '@/lib/portal/format.ts';
import {
  CONTACT_MAX,
  myUpgradeRequests,
  tierComparison,
  USE_CASE_MAX,
  upgradeableKeys,
} from '@/lib/portal/upgrades.ts';
import { requireViewer } from '@/lib/portal/viewer.ts';
import { UpgradeForm } from './UpgradeForm.tsx';
import '@/components/support/support.css';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';

export const metadata: Metadata = { title: 'Upgrade to Pro' };

export default async function UpgradePage({
  searchParams,
}: {
  searchParams: Promise<{ key?: string; sent?: string }>;
}) {
  const viewer = await requireViewer('/upgrade');
  const { key, sent } = await searchParams;
  const db = getDb();
  const [tiers, keys, requests] = await Promise.all([
    tierComparison(db),
    upgradeableKeys(db, viewer),
    myUpgradeRequests(db, viewer),
  ]);
  const pendingKeys = new Set(requests.filter((r) => r.status === 'pending').map((r) => r.key.id));
  const options = keys.map((k) => ({ ...k, pending: pendingKeys.has(k.id) }));
  const { free, pro } = tiers;

  return (
    <>
      <h1>Upgrade to Pro</h1>
      <div className="grid tier-compare">
        {[free, pro].map((tier) => (
          <section key={tier.id} className="panel" aria-labelledby={`tier-${tier.id}`}>
            <h2 id={`tier-${tier.id}`}>{tier.name}</h2>
            <dl className="facts">
              <dt>Daily quota</dt>
              <dd>
                <strong>{formatCount(tier.dailyQuota)}</strong> calls/day
              </dd>
              <dt>Rate</dt>
              <dd>
                <strong>{formatRate(tier.ratePerSecond)}</strong>
              </dd>
            </dl>
            <p className="muted">{tier.description}</p>
          </section>
        ))}
      </div>
      <p>
        Pro gives a key {formatCount(pro.dailyQuota / free.dailyQuota)}× the daily calls and{' '}
        {formatRate(pro.ratePerSecond)} instead of {formatRate(free.ratePerSecond)}. Staff review each request; once
        approved, the key is Pro from its next call, with the same secret.
      </p>

      <h2>Request Pro</h2>
      {sent === '1' ? (
        <p className="alert success" role="status">
          Request sent. Staff will review it; the decision appears under “Your requests” below.
        </p>
      ) : null}
      {options.length === 0 ? (
        <p className="empty">
          You have no active free key to upgrade (keys already on Pro need nothing more).{' '}
          <Link href="/keys">Create a key</Link>, then come back here to ask for Pro.
        </p>
      ) : options.every((k) => k.pending) ? (
        <p className="empty">Every free key of yours already has a pending request; the decision will appear below.</p>
      ) : (
        <UpgradeForm
          keys={options}
          selected={typeof key === 'string' ? key : ''}
          contact={viewer.email}
          useCaseMax={USE_CASE_MAX}
          contactMax={CONTACT_MAX}
        />
      )}

      <h2>Your requests</h2>
      {requests.length ? (
        <ScrollRegion label="Your requests">
          <table>
            <thead>
              <tr>
                <th>Key</th>
                <th>Status</th>
                <th>Asked</th>
                <th className="num">Expected</th>
                <th>Decided</th>
                <th>Note from staff</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code>{r.key.display}</code> {r.key.name}
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <When date={r.createdAt} relative />
                    <div className="muted">via {sourceLabel(r.channel)}</div>
                  </td>
                  <td className="num">{formatCount(r.expectedDailyCalls)} calls/day</td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <When date={r.decidedAt} empty="not yet" />
                  </td>
                  <td>{r.decisionNote ?? (r.status === 'pending' ? 'Waiting for staff' : '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <p className="empty">No requests yet.</p>
      )}
    </>
  );
}
