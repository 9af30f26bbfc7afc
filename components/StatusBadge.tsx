/** A status word in its badge colour: key statuses and upgrade-request statuses share the palette (globals.css). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${status}`}>{status}</span>;
}

/** A key's status for its badge: a key disabled because it was reissued reads "replaced". */
export function keyBadgeStatus(report: {
  status: 'active' | 'disabled' | 'expired';
  replacedById: string | null;
}): 'active' | 'disabled' | 'expired' | 'replaced' {
  return report.replacedById ? 'replaced' : report.status;
}
