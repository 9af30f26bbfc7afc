/** A status word in its badge colour: key statuses and upgrade-request statuses share the palette (globals.css). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${status}`}>{status}</span>;
}
