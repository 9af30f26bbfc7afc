/**
 * The developer's keys, one row per key in use: the keys a key replaced (its reissue chain) fold under it in
 * a disclosure, open while one of them still works (its grace period), so its "works until" stays in view.
 * On a phone each row is a card (app/keys/keys.css).
 */
import Link from 'next/link';
import { QuotaMeter } from '@/components/QuotaMeter.tsx';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import type { ConnectedApp, ConnectedAppsByKey } from '@/lib/portal/connected-apps.ts';
import { formatRelative, formatUtc } from '@/lib/portal/format.ts';
import type { KeyListEntry, KeyListRow } from '@/lib/portal/keys.ts';

function WorksUntil({ worksUntil }: { worksUntil: string | null }) {
  if (!worksUntil) return null;
  return (
    <span className="when muted">
      works until{' '}
      <time dateTime={worksUntil} title={formatUtc(worksUntil, { seconds: true })}>
        {formatUtc(worksUntil)}
      </time>
    </span>
  );
}

/** "Connected: Claude, ChatGPT": the apps that use the key (their details and Disconnect are on its page). */
function ConnectedMark({ apps }: { apps: ConnectedApp[] | undefined }) {
  if (!apps?.length) return null;
  return <span className="connected-mark">Connected: {[...new Set(apps.map((app) => app.name))].join(', ')}</span>;
}

function OlderKeys({ keys, connected }: { keys: KeyListRow[]; connected: ConnectedAppsByKey }) {
  const count = keys.length === 1 ? '1 older key' : `${keys.length} older keys`;
  return (
    <details className="older-keys" open={keys.some((k) => k.worksUntil)}>
      <summary>Replaces {count}</summary>
      <ul>
        {keys.map((key) => (
          <li key={key.id}>
            <Link href={`/keys/${key.id}`} aria-label={`Open the older key ${key.display}`}>
              <code>{key.display}</code>
            </Link>{' '}
            <StatusBadge status={key.status} /> <WorksUntil worksUntil={key.worksUntil} />
            <ConnectedMark apps={connected[key.id]} />
          </li>
        ))}
      </ul>
    </details>
  );
}

export function KeysTable({
  keys,
  now,
  connected = {},
}: {
  keys: KeyListEntry[];
  now: number;
  /** The apps connected to each key (lib/portal/connected-apps.ts). */
  connected?: ConnectedAppsByKey;
}) {
  return (
    <ScrollRegion label="Your keys">
      <table className="keys-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Tier</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Today</th>
            <th scope="col">Last used</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row" data-label="Name">
                <div className="key-name">
                  <Link href={`/keys/${key.id}`}>{key.name}</Link>
                  <ConnectedMark apps={connected[key.id]} />
                  {key.replaces.length > 0 && <OlderKeys keys={key.replaces} connected={connected} />}
                </div>
              </th>
              <td data-label="Key">
                <code>{key.display}</code>
              </td>
              <td data-label="Tier">{key.tier}</td>
              <td data-label="Status">
                <StatusBadge status={key.status} />
                <WorksUntil worksUntil={key.worksUntil} />
              </td>
              <td data-label="Expires">
                {key.expiresAt ? (
                  <div>
                    <time dateTime={key.expiresAt}>{formatUtc(key.expiresAt)}</time>
                    <span className="when muted">{formatRelative(key.expiresAt, now)}</span>
                  </div>
                ) : (
                  'never'
                )}
              </td>
              <td data-label="Today">
                <QuotaMeter used={key.usedToday} quota={key.dailyQuota} />
              </td>
              <td data-label="Last used">
                {key.lastUsedAt ? (
                  <time dateTime={key.lastUsedAt} title={formatUtc(key.lastUsedAt, { seconds: true })}>
                    {formatRelative(key.lastUsedAt, now)}
                  </time>
                ) : (
                  'never'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
