/** A call's outcome as a badge: success, failure (the tool answered with an error) or rate-limited (refused, no quota used). */
const LABELS: Record<string, string> = { success: 'success', failure: 'failure', rate_limited: 'rate-limited' };

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return <span className={`badge ${outcome}`}>{LABELS[outcome] ?? outcome}</span>;
}
