'use client';
/**
 * The followers bound to this account, each with Unbind behind a confirmation. One action state for the
 * list, kept here: a successful unbind re-renders the page without that follower (and its dialog), and
 * its outcome must survive that. `target` ties a refusal to the dialog it came from.
 */
import { useActionState, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { FormMessage } from '@/components/FormMessage.tsx';
import { When } from '@/components/When.tsx';
import type { BoundFollower } from '@/lib/channels/portal-binding.ts';
import { unbindAction } from './actions.ts';

export function BoundFollowers({ bindings }: { bindings: BoundFollower[] }) {
  const [state, unbind] = useActionState(unbindAction, null);
  const [target, setTarget] = useState<string | null>(null);
  // The Unbind button that had the focus is gone with its follower: the focus goes to the outcome.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state?.ok && (!document.activeElement || document.activeElement === document.body)) outcome.current?.focus();
  }, [state]);

  return (
    <>
      <div ref={outcome} tabIndex={-1}>
        <FormMessage state={state?.ok ? state : null} />
      </div>
      <h3 id="bound-followers">Bound to this account</h3>
      {bindings.length ? (
        <ul className="bindings" aria-labelledby="bound-followers">
          {bindings.map((b) => (
            <li key={b.id}>
              <span>
                <strong>{b.app}</strong> follower <code>{b.follower}</code>, bound since <When date={b.since} />
              </span>
              <ConfirmDialog
                trigger="Unbind…"
                title={`Unbind this ${b.app} follower?`}
                confirm="Unbind"
                pendingText="Unbinding…"
                state={target === b.id ? state : null}
                formAction={(form) => {
                  setTarget(b.id);
                  unbind(form);
                }}
              >
                <input type="hidden" name="bindingId" value={b.id} />
                <p>
                  The {b.app} account <code>{b.follower}</code> will no longer speak for this account: it cannot see
                  your keys or usage until it is bound again with a new code.
                </p>
              </ConfirmDialog>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No messaging-app account is bound to this one.</p>
      )}
    </>
  );
}
