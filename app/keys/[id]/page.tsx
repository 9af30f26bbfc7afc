import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { KeyFacts } from '@/components/usage/KeyFacts.tsx';
import { LiveKeyUsage } from '@/components/usage/LiveKeyUsage.tsx';
import { getDb } from '@/lib/db/client.ts';
import { myKeyDetail } from '@/lib/portal/keys.ts';
import { orNotFound, requireViewer } from '@/lib/portal/viewer.ts';
import { KeyActions } from './KeyActions.tsx';
import '../keys.css';

export const metadata: Metadata = { title: 'My key and usage' };

export default async function KeyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer(`/keys/${encodeURIComponent(id)}`);
  const { report, actions } = await orNotFound(myKeyDetail(getDb(), viewer, id));
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
          <KeyActions key={report.id} keyId={report.id} name={report.name} actions={actions} />
        </section>
      </div>

      <h2>Usage</h2>
      <LiveKeyUsage initial={report} endpoint={`/api/portal/keys/${encodeURIComponent(report.id)}/usage`} />
    </>
  );
}
