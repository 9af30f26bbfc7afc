import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client.ts';
import { createClientsStore } from '@/lib/oauth/clients.ts';
import { CONSENT_PATH } from '@/lib/oauth/paths.ts';
import { consentView, NEW_KEY } from '@/lib/portal/oauth-consent.ts';
import { requireViewer } from '@/lib/portal/viewer.ts';
import { ConsentForm } from './ConsentForm.tsx';
import './consent.css';

export const metadata: Metadata = { title: 'Connect an app' };

/**
 * Where /authorize sends the browser: which app asks, where the browser goes afterwards, what the app may
 * do, and Allow or Deny. Signed out, sign-in comes back here with the same request.
 */
export default async function ConsentPage({ searchParams }: { searchParams: Promise<{ request?: string }> }) {
  const { request } = await searchParams;
  const viewer = await requireViewer(`${CONSENT_PATH}?request=${encodeURIComponent(request ?? '')}`);
  const db = getDb();
  const consent = await consentView(db, createClientsStore(db), viewer, request);
  if (!consent.ok)
    return (
      <>
        <h1>Connect an app</h1>
        <p className="alert error" role="alert">
          {consent.problem}
        </p>
      </>
    );
  const view = consent.value;
  return (
    <section className="panel consent" aria-labelledby="consent-title">
      <div className="consent-head">
        {view.logoUri ? (
          // biome-ignore lint/performance/noImgElement: an app's own logo on another host; next/image would proxy it
          <img src={view.logoUri} alt="" width={48} height={48} referrerPolicy="no-referrer" className="consent-logo" />
        ) : null}
        <h1 id="consent-title">
          Allow <span className="consent-app">{view.clientName}</span> to use your chemistry tools?
        </h1>
      </div>
      <p className="muted">Signed in as {viewer.email}.</p>
      <h2>If you allow it, the app can</h2>
      <ul>
        <li>call this service’s chemistry tools (compound data, equations of state, descriptors…) for you;</li>
        <li>
          spend the quota and rate of the key you choose: its calls count as that key’s calls and show on the key’s
          page.
        </li>
      </ul>
      <p>
        It cannot see your account, your other keys or your usage. You can disconnect it on the key’s page at any time,
        and disabling the key stops it too.
      </p>
      <p>
        Afterwards your browser returns to <strong className="consent-target">{view.redirectTarget}</strong>. Allow only
        if you started this connection in that app.
      </p>
      <ConsentForm
        signed={view.signed}
        csrf={view.csrf}
        newKey={NEW_KEY}
        newKeyName={view.newKeyName}
        canCreateKey={view.canCreateKey}
        keys={view.keys}
      />
    </section>
  );
}
