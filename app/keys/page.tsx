import type { Metadata } from 'next';
import Link from 'next/link';
import { StoppedKeysNotice } from '@/components/keys/StoppedKeyNotices.tsx';
import { QuotaMeter } from '@/components/QuotaMeter.tsx';
import { StatusBadge } from '@/components/StatusBadge.tsx';
import { getDb } from '@/lib/db/client.ts';
import { formatRelative, formatUtc } from '@/lib/portal/format.ts';
import { listMyKeys } from '@/lib/portal/keys.ts';
import { keysStoppedByOthers } from '@/lib/portal/stopped-keys.ts';
import { orNotFound, requireViewer } from '@/lib/portal/viewer.ts';
import { CreateKey } from './CreateKey.tsx';
import './keys.css';

export const metadata: Metadata = { title: 'Your API keys' };

export default async function KeysPage() {
  const viewer = await requireViewer('/keys');
  const [{ keys, total, quotaResetsAt }, stoppedByOthers] = await orNotFound(
    Promise.all([listMyKeys(getDb(), viewer), keysStoppedByOthers(getDb(), viewer)]),
  );
  const now = Date.now();
  return (
    <>
      <h1>Your API keys</h1>
      <p className="muted">
        A key authenticates your calls to <code>/mcp</code>. Open a key for its usage, to rename, reissue or disable it,
        or to ask for Pro. Daily quotas start again at {formatUtc(quotaResetsAt)} ({formatRelative(quotaResetsAt, now)}
        ). <Link href="/usage">Usage of all your keys</Link>
      </p>
      <StoppedKeysNotice keys={stoppedByOthers} />
      <CreateKey hasKeys={keys.length > 0} />
      {total > keys.length && (
        <p className="muted">
          Showing the newest {keys.length} of your {total} keys.
        </p>
      )}
      {keys.length > 0 && (
        <div className="table-wrap">
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
                    <Link href={`/keys/${key.id}`}>{key.name}</Link>
                  </th>
                  <td data-label="Key">
                    <code>{key.display}</code>
                  </td>
                  <td data-label="Tier">{key.tier}</td>
                  <td data-label="Status">
                    <StatusBadge status={key.status} />
                    {key.worksUntil && (
                      <span className="when muted">
                        works until{' '}
                        <time dateTime={key.worksUntil} title={formatUtc(key.worksUntil, { seconds: true })}>
                          {formatUtc(key.worksUntil)}
                        </time>
                      </span>
                    )}
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
        </div>
      )}
    </>
  );
}
