/**
 * Audit events as a table: who did what to which key or user, the changed fields, why, from where. Six
 * columns (the address under the actor, the user under the key) so that it fits a 1280 px screen.
 */
import Link from 'next/link';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { When } from '@/components/When.tsx';
import { sourceLabel } from '@/lib/channels/labels.ts';
import type { AuditRow, FieldChange } from '@/lib/portal/audit-trail.ts';

const FIELD_LABELS: Record<string, string> = {
  tierId: 'tier',
  dailyQuota: 'daily quota',
  ratePerSecond: 'per-second limit',
  expiresAt: 'expiry',
  disabledAt: 'disabled at',
  disabledReason: 'disabled reason',
  replacedById: 'replaced by',
  replaces: 'replaces',
  graceSeconds: 'old secret kept working for',
  // channel.bind and channel.unbind: which app, and the follower's id there (a WeChat OpenID, a Telegram user id).
  channel: 'messaging app',
  follower: 'follower',
};

/** A reissue's grace period as chosen (REISSUE_GRACE_PERIODS), in words. */
function graceText(seconds: number): string {
  if (seconds === 0) return 'no time (stopped at once)';
  if (seconds % 86_400 === 0) return seconds === 86_400 ? '24 hours' : `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return seconds === 3_600 ? '1 hour' : `${seconds / 3_600} hours`;
  return `${seconds} s`;
}

function valueText(field: string, value: unknown): string {
  if (value === undefined) return '—';
  if (field === 'graceSeconds' && typeof value === 'number') return graceText(value);
  if (field === 'channel' && typeof value === 'string') return sourceLabel(value);
  if (value === null) {
    if (field === 'dailyQuota' || field === 'ratePerSecond') return 'tier default';
    if (field === 'expiresAt') return 'never';
    return 'none';
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value))
    return `${value.slice(0, 16).replace('T', ' ')} UTC`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Change({ change }: { change: FieldChange }) {
  const label = FIELD_LABELS[change.field] ?? change.field;
  if (change.before === undefined)
    return (
      <li>
        {label}: <code>{valueText(change.field, change.after)}</code>
      </li>
    );
  // Only a before: the event took it away (an unbind names the follower it removed).
  if (change.after === undefined)
    return (
      <li>
        {label}: <code>{valueText(change.field, change.before)}</code> (removed)
      </li>
    );
  return (
    <li>
      {label}: <code>{valueText(change.field, change.before)}</code> →{' '}
      <code>{valueText(change.field, change.after)}</code>
    </li>
  );
}

export function AuditTable({ events, caption }: { events: AuditRow[]; caption: string }) {
  if (!events.length) return <p className="empty">No audit events match.</p>;
  return (
    <ScrollRegion label="Audit events">
      <table>
        <caption className="muted" style={{ textAlign: 'left', padding: '0.5rem 0.75rem' }}>
          {caption}
        </caption>
        <thead>
          <tr>
            <th>When</th>
            <th>
              By <span className="muted">(from address)</span>
            </th>
            <th>Action</th>
            <th>Reason</th>
            <th>
              Key <span className="muted">(owner or user)</span>
            </th>
            <th>Changes</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id}>
              <td className="audit-when">
                <When date={e.createdAt} />
              </td>
              <td className="audit-who">
                {e.actor}
                {e.ip ? <div className="muted">{e.ip}</div> : null}
              </td>
              <td>
                <code>{e.action}</code>
              </td>
              <td className="audit-reason">{e.reason ?? '—'}</td>
              <td className="audit-who">
                {e.keyId ? (
                  <Link href={`/support/keys/${e.keyId}`}>
                    <code>{e.keyDisplay ?? e.keyId}</code>
                  </Link>
                ) : null}
                {e.targetEmail ? <div>{e.targetEmail}</div> : null}
                {!e.keyId && !e.targetEmail ? '—' : null}
              </td>
              <td className="audit-changes">
                {e.changes.length ? (
                  <ul className="changes">
                    {e.changes.map((c) => (
                      <Change key={c.field} change={c} />
                    ))}
                  </ul>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
