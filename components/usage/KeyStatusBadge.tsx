/** A key's status as a badge; a key disabled because it was reissued reads "replaced". */
export type KeyBadgeStatus = 'active' | 'disabled' | 'expired' | 'replaced';

export function keyBadgeStatus(report: { status: 'active' | 'disabled' | 'expired'; replacedById: string | null }): KeyBadgeStatus {
  return report.replacedById ? 'replaced' : report.status;
}

export function KeyStatusBadge({ status }: { status: KeyBadgeStatus }) {
  return <span className={`badge ${status === 'replaced' ? 'disabled' : status}`}>{status}</span>;
}
