/**
 * Tells an owner that someone else turned their key off: who, when, why, and that reissuing it gives a new
 * secret with the same settings. One notice on the key page, a list of them on /keys.
 */
import Link from 'next/link';
import { When } from '@/components/When.tsx';
import { readableReason, type StoppedKey, whoDisabled } from '@/lib/portal/stopped-keys.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';

export function StoppedKeyNotice({ report }: { report: KeyReport }) {
  const by = report.disabledBy;
  if (!by || by === 'owner' || !report.disabledAt) return null;
  const reason = readableReason(report.disabledReason);
  return (
    <div className="alert error" role="note" aria-label="This key was disabled">
      <p>
        <strong>{whoDisabled(by)} this key</strong> on <When date={report.disabledAt} relative />
        {reason && <>: “{reason}”</>}. Its secret no longer works.
      </p>
      <p>
        Reissue it under <em>Manage</em> to get a new secret with the same name, tier and limits (today&apos;s count
        carries over); the old secret stays off.
      </p>
    </div>
  );
}

export function StoppedKeysNotice({ keys }: { keys: StoppedKey[] }) {
  if (keys.length === 0) return null;
  return (
    <section className="alert error" aria-labelledby="stopped-keys-title">
      <h2 id="stopped-keys-title">{keys.length === 1 ? 'A key was disabled' : `${keys.length} keys were disabled`}</h2>
      <ul>
        {keys.map((key) => (
          <li key={key.id}>
            {whoDisabled(key.by)} <Link href={`/keys/${key.id}`}>{key.name}</Link> (<code>{key.display}</code>) on{' '}
            <When date={key.disabledAt} relative />
            {key.reason && <>: “{key.reason}”</>}.
          </li>
        ))}
      </ul>
      <p>Open the key to reissue it: you get a new secret with the same tier and limits.</p>
    </section>
  );
}
