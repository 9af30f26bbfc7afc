'use client';
/**
 * The apps connected to this key (OAuth clients the owner allowed): each with when it connected and last
 * renewed its access, and Disconnect behind a confirmation, as the page's other actions that stop
 * something. The action state lives here, above the list: a disconnected app leaves the list (and the last
 * one the whole list), and the outcome must survive that. Without apps and without an outcome to show,
 * there is no section at all.
 */
import { useActionState, useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { FormMessage } from '@/components/FormMessage.tsx';
import { When } from '@/components/When.tsx';
import type { ConnectedApp } from '@/lib/portal/connected-apps.ts';
import { disconnectAppAction } from '../actions.ts';

export function ConnectedApps({ apps, keyWorks }: { apps: ConnectedApp[]; keyWorks: boolean }) {
  const [state, disconnect] = useActionState(disconnectAppAction, null);
  // Which dialog sent the last form: only that one shows its refusal.
  const [sentFrom, setSentFrom] = useState<string | null>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const done = state?.ok ? state : null;
  // The disconnected app's button went with it: the focus goes to the outcome.
  useEffect(() => {
    if (done && (!document.activeElement || document.activeElement === document.body)) outcome.current?.focus();
  }, [done]);

  if (apps.length === 0 && !done) return null;
  return (
    <section className="panel connected-apps" aria-labelledby={headingId}>
      <h2 id={headingId}>Connected apps</h2>
      <div ref={outcome} tabIndex={-1}>
        <FormMessage state={done} />
      </div>
      {apps.length > 0 && (
        <>
          <p className="muted">
            These apps call <code>/mcp</code> with this key, with access tokens they renew themselves. Disconnecting an
            app ends its access at once; the key keeps working for everything else.
            {!keyWorks && ' This key no longer works, so these apps cannot call with it either.'}
          </p>
          <ul className="connected-list">
            {apps.map((app) => (
              <li key={app.connectionId}>
                <div className="connected-app">
                  <strong className="connected-name">{app.name}</strong>
                  <span className="muted">
                    connected <When date={app.connectedAt} relative />
                  </span>
                  {app.lastRefreshedAt && (
                    <span className="muted">
                      last refreshed <When date={app.lastRefreshedAt} relative />
                    </span>
                  )}
                </div>
                <ConfirmDialog
                  trigger="Disconnect…"
                  title="Disconnect this app?"
                  reopenAs={`disconnect-${app.connectionId}`}
                  confirm="Disconnect"
                  pendingText="Disconnecting…"
                  state={sentFrom === app.connectionId ? state : null}
                  formAction={(form) => {
                    setSentFrom(app.connectionId);
                    disconnect(form);
                  }}
                >
                  <input type="hidden" name="connectionId" value={app.connectionId} />
                  <p className="connected-name">
                    <strong>{app.name}</strong>
                  </p>
                  <p>
                    Its access tokens stop working at once and it cannot renew them; to use it again, connect it again
                    from the app. The key itself keeps working, for you and for any other app connected to it.
                  </p>
                </ConfirmDialog>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
