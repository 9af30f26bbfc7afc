/**
 * What a key is: display form, status (with why it was disabled), tier, expiry and creation; its last use
 * is in the live usage panels. Shared by the key detail page and the support console (which also shows the owner).
 */
import Link from 'next/link';
import { keyBadgeStatus, StatusBadge } from '@/components/StatusBadge.tsx';
import { When } from '@/components/When.tsx';
import type { KeyReport } from '@/lib/usage/key-report.ts';

export function KeyFacts({
  report,
  showOwner = false,
  keyHref,
}: {
  report: KeyReport;
  showOwner?: boolean;
  keyHref?: (id: string) => string;
}) {
  const status = keyBadgeStatus(report);
  return (
    <dl className="facts">
      <dt>Key</dt>
      <dd>
        <code>{report.display}</code>
      </dd>
      {showOwner && (
        <>
          <dt>Owner</dt>
          <dd>{report.owner}</dd>
        </>
      )}
      <dt>Status</dt>
      <dd>
        <StatusBadge status={status} />
        {status === 'replaced' && report.replacedById && (
          <>
            {' '}
            by a reissued key
            {report.worksUntil && (
              <>
                {' '}
                — works until <When date={report.worksUntil} relative />, then stops
              </>
            )}
            {keyHref && (
              <>
                : <Link href={keyHref(report.replacedById)}>open the new key</Link>
              </>
            )}
          </>
        )}
        {status === 'disabled' && report.disabledAt && (
          <>
            {' '}
            since <When date={report.disabledAt} relative />
            {report.disabledReason && <>: {report.disabledReason}</>}
          </>
        )}
      </dd>
      {report.predecessor && (
        <>
          <dt>Replaces</dt>
          <dd>
            <code>{report.predecessor.display}</code>, whose secret still works until{' '}
            <When date={report.predecessor.worksUntil} relative />
            {keyHref && (
              <>
                {' '}
                (<Link href={keyHref(report.predecessor.id)}>open the old key</Link>)
              </>
            )}
          </dd>
        </>
      )}
      <dt>Tier</dt>
      <dd>{report.tier}</dd>
      <dt>Expires</dt>
      <dd>
        <When date={report.expiresAt} relative empty="never (no expiry)" />
      </dd>
      <dt>Created</dt>
      <dd>
        <When date={report.createdAt} relative />
      </dd>
    </dl>
  );
}
