/**
 * What a key is: display form, status (with why it was disabled), tier, expiry and creation; its last use
 * is in the live usage panels. Shared by the key detail page and the support console (which also shows the owner).
 */
import Link from 'next/link';
import type { KeyReport } from '@/lib/keys/report.ts';
import { formatRelative, formatUtc } from './format.ts';
import { keyBadgeStatus, KeyStatusBadge } from './KeyStatusBadge.tsx';

/** An instant as "2026-11-26 14:03 UTC (3 days ago)"; `never` when there is none. */
export function When({ iso, never = 'never' }: { iso: string | null; never?: string }) {
  if (!iso) return <>{never}</>;
  return (
    <>
      <time dateTime={iso}>{formatUtc(iso)}</time> <span className="muted" suppressHydrationWarning>({formatRelative(iso)})</span>
    </>
  );
}

export function KeyFacts({ report, showOwner = false, keyHref }: { report: KeyReport; showOwner?: boolean; keyHref?: (id: string) => string }) {
  const status = keyBadgeStatus(report);
  return (
    <dl className="facts">
      <dt>Key</dt>
      <dd><code>{report.display}</code></dd>
      {showOwner && (
        <>
          <dt>Owner</dt>
          <dd>{report.owner}</dd>
        </>
      )}
      <dt>Status</dt>
      <dd>
        <KeyStatusBadge status={status} />
        {status === 'replaced' && report.replacedById && (
          <> by a reissued key{keyHref && <>: <Link href={keyHref(report.replacedById)}>open the new key</Link></>}</>
        )}
        {status === 'disabled' && report.disabledAt && (
          <> since <When iso={report.disabledAt} />{report.disabledReason && <>: {report.disabledReason}</>}</>
        )}
      </dd>
      <dt>Tier</dt>
      <dd>{report.tier}</dd>
      <dt>Expires</dt>
      <dd><When iso={report.expiresAt} never="never (no expiry)" /></dd>
      <dt>Created</dt>
      <dd><When iso={report.createdAt} /></dd>
    </dl>
  );
}
