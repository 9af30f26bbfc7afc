import type { Metadata } from 'next';
import Link from 'next/link';
import { KeysTable } from '@/components/keys/KeysTable.tsx';
import { StoppedKeysNotice } from '@/components/keys/StoppedKeyNotices.tsx';
import { getDb } from '@/lib/db/client.ts';
import { connectedAppsOf } from '@/lib/portal/connected-apps.ts';
import { formatRelative, formatUtc } from '@/lib/portal/format.ts';
import { listMyKeys } from '@/lib/portal/keys.ts';
import { keysStoppedByOthers } from '@/lib/portal/stopped-keys.ts';
import { orNotFound, requireViewer } from '@/lib/portal/viewer.ts';
import { EXAMPLE_CALL } from '../docs/snippets.ts';
import { CreateKey } from './CreateKey.tsx';
import './keys.css';

export const metadata: Metadata = { title: 'Your API keys' };

export default async function KeysPage() {
  const viewer = await requireViewer('/keys');
  const [{ keys, shown, total, quotaResetsAt }, stoppedByOthers, connected] = await orNotFound(
    Promise.all([listMyKeys(getDb(), viewer), keysStoppedByOthers(getDb(), viewer), connectedAppsOf(getDb(), viewer)]),
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
      <CreateKey hasKeys={keys.length > 0} exampleCall={EXAMPLE_CALL} />
      {total > shown && (
        <p className="muted">
          Showing the newest {shown} of your {total} keys.
        </p>
      )}
      {keys.length > 0 && <KeysTable keys={keys} now={now} connected={connected} />}
    </>
  );
}
