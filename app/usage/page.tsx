import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { RangeChoice } from '@/components/usage/RangeChoice.tsx';
import { UsageSummaryTable } from '@/components/usage/UsageSummaryTable.tsx';
import { getDb } from '@/lib/db/client.ts';
import { myUsageOverview } from '@/lib/portal/usage-overview.ts';
import { orNotFound, requireViewer } from '@/lib/portal/viewer.ts';
import { parseUsageRange } from '@/lib/usage/range.ts';
import '@/components/usage/usage.css';

export const metadata: Metadata = { title: 'Usage of your keys' };

export default async function UsagePage({ searchParams }: { searchParams: Promise<{ range?: string | string[] }> }) {
  const asked = (await searchParams).range;
  const range = parseUsageRange(asked);
  const viewer = await requireViewer(asked === undefined ? '/usage' : `/usage?range=${range}`);
  const usage = await orNotFound(myUsageOverview(getDb(), viewer, range));
  return (
    <>
      <h1>Usage of your keys</h1>
      <p className="muted">
        Calls to <code>/mcp</code> made with each of your keys: today ({usage.today}) and over{' '}
        {usage.fromDay === usage.rangeStart
          ? `the last ${range} quota days (${usage.fromDay} to ${usage.today})`
          : `the quota days since your first key was made (${usage.fromDay} to ${usage.today})`}
        . Successes and failures count against a key&apos;s daily quota; rate-limited calls do not. Each row counts the
        calls made with that key&apos;s own secret; a key&apos;s page counts its whole reissue chain and has its call
        log.
      </p>
      <div className="usage-panels">
        <div className="panel-head">
          <span className="muted">Days shown:</span>
          <RangeChoice current={range} />
        </div>
        {usage.keys.length === 0 ? (
          <p className="empty">
            You have no API keys yet. <Link href="/keys">Create a key</Link>, call <code>/mcp</code> with it, and its
            usage appears here.
          </p>
        ) : (
          <>
            <section className="panel">
              <h2>By key</h2>
              {usage.totalKeys > usage.keys.length && (
                <p className="muted">
                  Showing the newest {usage.keys.length} of your {usage.totalKeys} keys; the totals count them all.
                </p>
              )}
              <UsageSummaryTable
                caption="Calls per key"
                rowHeading="Key"
                detailHeading="Status"
                rangeDays={range}
                total={usage.allKeys}
                rows={usage.keys.map((key) => ({
                  key: key.id,
                  label: (
                    <>
                      <Link href={`/keys/${key.id}?range=${range}`}>{key.name}</Link>{' '}
                      <code className="muted">{key.display}</code>
                    </>
                  ),
                  detail: <StatusBadge status={key.status} />,
                  today: key.today,
                  range: key.range,
                }))}
              />
            </section>
            <section className="panel">
              <h2>By tool, over all your keys</h2>
              {usage.tools.length === 0 ? (
                <p className="empty">No calls in the last {range} days.</p>
              ) : (
                <UsageSummaryTable
                  caption="Calls per tool, all keys"
                  rowHeading="Tool"
                  rangeDays={range}
                  total={usage.allKeys}
                  rows={usage.tools.map((t) => ({ key: t.tool, label: <code>{t.tool}</code>, ...t }))}
                />
              )}
            </section>
          </>
        )}
      </div>
    </>
  );
}
