'use client';
/**
 * What the owner can do with a key: rename it inline; reissue, report as leaked and disable it, each
 * after a confirmation. The action states live here, above the dialogs, because a successful action
 * re-renders the page without the buttons that no longer apply (a disabled key offers no "Disable"),
 * and the outcome (or a reissued secret) must survive that.
 */
import { useRouter } from 'next/navigation';
import { useActionState, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { FormMessage } from '@/components/FormMessage.tsx';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError, useField } from '@/components/forms/Field.tsx';
import { GraceChoice } from '@/components/keys/GraceChoice.tsx';
import { KeyNameInput } from '@/components/keys/KeyNameInput.tsx';
import { type ExampleCall, NewSecretDialog } from '@/components/keys/NewSecretDialog.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { When } from '@/components/When.tsx';
import type { MyKeyActions } from '@/lib/portal/keys.ts';
import { disableKeyAction, reissueKeyAction, renameKeyAction, reportLeakedAction } from '../actions.ts';

/** In the disable and leak dialogs: the secret this key replaced, still in its grace period, stops with it. */
function PredecessorStops({ predecessor }: { predecessor: MyKeyActions['predecessorInGrace'] }) {
  return predecessor ? (
    <p>
      The previous secret, {predecessor.display}, still in its grace period until <When date={predecessor.worksUntil} />
      , stops too.
    </p>
  ) : null;
}

/** The disable dialog's optional reason, tied to its refusal. */
function DisableReason() {
  const field = useField();
  return (
    <>
      <label>
        Reason <span className="hint">(optional, kept in the audit trail)</span>
        <input {...field('reason')} maxLength={500} placeholder="disabled by owner" autoComplete="off" />
      </label>
      <FieldError name="reason" />
    </>
  );
}

export function KeyActions({
  keyId,
  name,
  actions,
  exampleCall,
}: {
  keyId: string;
  name: string;
  actions: MyKeyActions;
  exampleCall: ExampleCall;
}) {
  const router = useRouter();
  const [renameState, rename] = useActionState(renameKeyAction, null);
  const [disableState, disable] = useActionState(disableKeyAction, null);
  const [leakState, reportLeak] = useActionState(reportLeakedAction, null);
  const [reissueState, reissue] = useActionState(reissueKeyAction, null);
  const [secretClosed, setSecretClosed] = useState<typeof reissueState>(null);
  const keyField = <input type="hidden" name="keyId" value={keyId} />;
  // Disabling takes the Disable and Report buttons away with their dialogs: the focus goes to the outcome.
  const outcome = useRef<HTMLDivElement>(null);
  const stopped = disableState?.ok || leakState?.ok;
  useEffect(() => {
    if (stopped && (!document.activeElement || document.activeElement === document.body)) outcome.current?.focus();
  }, [stopped]);
  const reissued = reissueState?.ok && reissueState.secret && reissueState !== secretClosed ? reissueState : null;

  return (
    <div className="key-actions">
      <ActionForm action={rename} state={renameState} className="inline">
        {(field) => (
          <>
            {keyField}
            <label>
              Name
              <KeyNameInput field={field('name')} initial={name} />
            </label>
            <SubmitButton className="secondary" pendingText="Renaming…">
              Rename
            </SubmitButton>
            <FieldError name="name" />
          </>
        )}
      </ActionForm>
      <FormMessage state={renameState?.ok ? renameState : null} />

      <div ref={outcome} tabIndex={-1}>
        <FormMessage state={disableState?.ok ? disableState : null} />
        <FormMessage state={leakState?.ok ? leakState : null} />
      </div>

      {(actions.reissue || actions.reportLeaked || actions.disable) && (
        <div className="actions">
          {actions.reissue && (
            <ConfirmDialog
              trigger="Reissue…"
              title="Reissue this key?"
              reopenAs="reissue"
              confirm="Reissue key"
              confirmClass=""
              pendingText="Reissuing…"
              state={reissueState}
              formAction={reissue}
            >
              {keyField}
              {actions.reissueOfStoppedKey ? (
                <>
                  <input type="hidden" name="grace" value="none" />
                  <p>
                    You get a new secret with the same name, tier, limits and expiry, shown once. The current secret is
                    disabled and <strong>stays off</strong>.
                  </p>
                </>
              ) : (
                <>
                  <p>
                    You get a new secret with the same name, tier, limits and expiry, shown once. The current secret
                    stops working at the time you choose: <strong>at once</strong> unless you give your clients time to
                    switch.
                  </p>
                  <GraceChoice />
                </>
              )}
            </ConfirmDialog>
          )}
          {actions.reportLeaked && (
            <ConfirmDialog
              trigger="Report as leaked…"
              title="Report this key as leaked?"
              reopenAs="report-leak"
              confirm="Disable and report leak"
              pendingText="Reporting…"
              state={leakState}
              formAction={reportLeak}
            >
              {keyField}
              <p>
                Use this when the secret turned up somewhere others can see it: a public repository, a log, a chat. The
                key is <strong>disabled at once</strong> (calls with it get 401) and the leak report is recorded in the
                key&apos;s audit trail. Afterwards you can reissue it to get a new secret with the same settings.
              </p>
              <PredecessorStops predecessor={actions.predecessorInGrace} />
            </ConfirmDialog>
          )}
          {actions.disable && (
            <ConfirmDialog
              trigger="Disable…"
              triggerClass="danger"
              title="Disable this key?"
              reopenAs="disable"
              confirm="Disable key"
              pendingText="Disabling…"
              state={disableState}
              formAction={disable}
            >
              {keyField}
              <p>
                Every call with this key gets 401 from then on. You cannot turn it back on yourself (you can reissue it,
                or create a new key).
              </p>
              <PredecessorStops predecessor={actions.predecessorInGrace} />
              <DisableReason />
            </ConfirmDialog>
          )}
        </div>
      )}

      {actions.reissueRefusal && <p className="muted">{actions.reissueRefusal}</p>}

      {reissued && (
        <NewSecretDialog
          title="Key reissued: your new secret"
          secret={reissued.secret!}
          display={reissued.display!}
          exampleCall={exampleCall}
          doneLabel="I have stored it: open the new key"
          onClosed={() => {
            setSecretClosed(reissueState);
            router.push(`/keys/${reissued.keyId}`);
          }}
        />
      )}
    </div>
  );
}
