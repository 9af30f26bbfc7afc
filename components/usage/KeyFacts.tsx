/**
 * What a key is: display form, status (with why it was disabled), tier and its limits (saying when staff set
 * them instead of the tier), expiry and creation; its last use is in the live usage panels.
 */
import Link from 'next/link';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { When } from '@/components/When.tsx';
import { formatCount, formatRate } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';

/** "(the free tier's)" or, for a limit staff set on this key, "(set by support; the free tier's default is 1,000)". */
function limitOrigin(setForKey: boolean, tier: string, tierDefault: string) {
  return (
    <span className="muted">
      {setForKey ? `(set by support; the ${tier} tier's default is ${tierDefault})` : `(the ${tier} tier's)`}
    </span>
  );
}

export function KeyFacts({
  report,
  showOwner = false,
  keyHref,
}: {
  report: KeyReport;
  showOwner?: boolean;
  keyHref?: (id: string) => string;
}) {
  const { status } = report;
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
        {(status === 'disabled' || status === 'leaked') && report.disabledAt && (
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
      <dt>Daily quota</dt>
      <dd>
        {formatCount(report.dailyQuota)} calls/day{' '}
        {limitOrigin(report.limitsSetForKey.dailyQuota, report.tier, formatCount(report.tierLimits.dailyQuota))}
      </dd>
      <dt>Per-second limit</dt>
      <dd>
        {formatRate(report.ratePerSecond)}{' '}
        {limitOrigin(report.limitsSetForKey.ratePerSecond, report.tier, formatRate(report.tierLimits.ratePerSecond))}
      </dd>
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
