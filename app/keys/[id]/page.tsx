import type { Metadata } from 'next';
import Link from 'next/link';
import { StoppedKeyNotice } from '@/components/keys/StoppedKeyNotices.tsx';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { KeyFacts } from '@/components/usage/KeyFacts.tsx';
import { LiveKeyUsage } from '@/components/usage/LiveKeyUsage.tsx';
import { getDb } from '@/lib/db/client.ts';
import { connectedAppsOf } from '@/lib/portal/connected-apps.ts';
import { myKeyDetail } from '@/lib/portal/keys.ts';
import { orNotFound, requireViewer } from '@/lib/portal/viewer.ts';
import { parseUsageRange } from '@/lib/usage/range.ts';
import { EXAMPLE_CALL } from '../../docs/snippets.ts';
import { ConnectedApps } from './ConnectedApps.tsx';
import { KeyActions } from './KeyActions.tsx';
import '../keys.css';

export const metadata: Metadata = { title: 'My key and usage' };

export default async function KeyPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ range?: string | string[] }>;
}) {
  const { id } = await params;
  const range = parseUsageRange((await searchParams).range);
  const viewer = await requireViewer(`/keys/${encodeURIComponent(id)}`);
  const [{ report, actions }, connected] = await orNotFound(
    Promise.all([myKeyDetail(getDb(), viewer, id, range), connectedAppsOf(getDb(), viewer, { keyId: id })]),
  );
  const api = `/api/portal/keys/${encodeURIComponent(report.id)}`;
  return (
    <>
      <p>
        <Link href="/keys">← All keys</Link>
      </p>
      <div className="key-head">
        <h1>{report.name}</h1>
        <StatusBadge status={report.status} />
      </div>
      <p className="muted">My key and usage: what this key may do, what it did today and lately.</p>
      <StoppedKeyNotice report={report} />

      <div className="grid key-sections">
        <section className="panel">
          <h2>Key</h2>
          <KeyFacts report={report} keyHref={(keyId) => `/keys/${keyId}`} />
          {actions.upgrade && (
            <p>
              Need more calls per day or per second? <Link href={`/upgrade?key=${report.id}`}>Upgrade to Pro</Link>
            </p>
          )}
        </section>
        <section className="panel">
          <h2>Manage</h2>
          <KeyActions
            key={report.id}
            keyId={report.id}
            name={report.name}
            actions={actions}
            exampleCall={EXAMPLE_CALL}
          />
        </section>
      </div>

      <ConnectedApps
        key={report.id}
        apps={connected[report.id] ?? []}
        keyWorks={report.status === 'active' || Boolean(report.worksUntil)}
      />

      <h2>Usage</h2>
      <LiveKeyUsage initial={report} endpoint={`${api}/usage?range=${range}`} callLogCsv={`${api}/calls.csv`} />
    </>
  );
}
