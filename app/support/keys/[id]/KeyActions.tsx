'use client';
/** What staff can do to a key: disable / re-enable (with a reason), reissue, change tier and limits. */
import { useRouter } from 'next/navigation';
import { useActionState, useRef } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { CopyButton } from '@/components/CopyButton.tsx';
import { FormMessage } from '@/components/FormMessage.tsx';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { FieldError, useField } from '@/components/forms/Field.tsx';
import { GraceChoice } from '@/components/keys/GraceChoice.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import { When } from '@/components/When.tsx';
import type { KeyStatus } from '@/lib/keys/status.ts';
import { formatCount, formatRate } from '@/lib/portal/format.ts';
import { changeSettingsAction, type ReissueResult, reissueKeyAction, switchKeyAction } from './actions.ts';

export interface KeyActionsProps {
  keyId: string;
  display: string;
  owner: string;
  status: KeyStatus;
  /** A replaced key whose secret still works (its reissue grace period): it can still be disabled. */
  inGrace: boolean;
  /** The key this one replaced, while its old secret still works: disabling this key stops it too. */
  predecessor: { display: string; worksUntil: string } | null;
  settings: { tierId: string; dailyQuota: number | null; ratePerSecond: number | null; expiresOn: string };
  tiers: { id: string; name: string; dailyQuota: number; ratePerSecond: number }[];
}

function ReasonField({ hint }: { hint: string }) {
  const field = useField();
  return (
    <>
      <label>
        Reason <span className="hint">{hint}</span>
        <textarea {...field('reason')} required maxLength={500} rows={3} />
      </label>
      <FieldError name="reason" />
    </>
  );
}

function NewSecret({ state, owner, close }: { state: Partial<ReissueResult>; owner: string; close: () => void }) {
  const secret = useRef<HTMLParagraphElement>(null);
  return (
    <div className="stack" style={{ display: 'grid', gap: '0.75rem' }}>
      <p className="alert success" role="status">
        Reissued as {state.display}.{' '}
        {state.oldWorksUntil ? (
          <>
            The old secret works until <When date={state.oldWorksUntil} />, then stops.
          </>
        ) : (
          'The old secret stopped working.'
        )}
      </p>
      <p>
        The new secret, shown <strong>only now</strong>:
      </p>
      {/* The figure names the secret (a paragraph cannot carry a name); margin 0 keeps the paragraph's spacing. */}
      <figure aria-label="New secret" style={{ margin: 0 }}>
        <p className="secret" ref={secret}>
          {state.secret}
        </p>
      </figure>
      <p className="muted">
        Send it to {owner} through a secure channel (your ticketing system’s private reply or a password manager share,
        never chat or plain email), then close this dialog. It cannot be shown again.
      </p>
      <div className="actions">
        {state.secret ? <CopyButton text={state.secret} target={secret} label="Copy secret" /> : null}
        <button type="button" onClick={close}>
          Done, open the new key
        </button>
      </div>
    </div>
  );
}

function SettingsForm({ keyId, settings, tiers }: Pick<KeyActionsProps, 'keyId' | 'settings' | 'tiers'>) {
  const [state, formAction] = useActionState(changeSettingsAction, null);
  const tier = (id: string) => tiers.find((t) => t.id === id);
  const current = tier(settings.tierId);
  return (
    <ActionForm action={formAction} state={state} className="stack">
      {(field) => (
        <>
          <input type="hidden" name="keyId" value={keyId} />
          <label>
            Tier
            <select {...field('tierId')} defaultValue={settings.tierId}>
              {tiers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}: {formatCount(t.dailyQuota)} calls/day, {formatRate(t.ratePerSecond)}
                </option>
              ))}
            </select>
          </label>
          <FieldError name="tierId" />
          <label>
            Daily quota{' '}
            <span className="hint">
              calls/day; blank = the tier’s default{current ? ` (${formatCount(current.dailyQuota)})` : ''}
            </span>
            <input
              {...field('dailyQuota')}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              defaultValue={settings.dailyQuota ?? ''}
            />
          </label>
          <FieldError name="dailyQuota" />
          <label>
            Per-second limit{' '}
            <span className="hint">
              calls/s; blank = the tier’s default{current ? ` (${current.ratePerSecond})` : ''}
            </span>
            <input
              {...field('ratePerSecond')}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              defaultValue={settings.ratePerSecond ?? ''}
            />
          </label>
          <FieldError name="ratePerSecond" />
          <label>
            Expires on <span className="hint">the key works through this UTC day; blank = never</span>
            <input {...field('expiresOn')} type="date" defaultValue={settings.expiresOn} />
          </label>
          <FieldError name="expiresOn" />
          <label>
            Reason <span className="hint">(optional, kept in the audit trail)</span>
            <input {...field('reason')} maxLength={500} />
          </label>
          <FieldError name="reason" />
          <FormMessage state={state?.ok ? state : null} />
          <div className="actions">
            <SubmitButton pendingText="Saving…">Save settings</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export function KeyActions(props: KeyActionsProps) {
  const router = useRouter();
  // Held here, above the dialogs: disabling swaps the Disable dialog for Re-enable, and the outcome stays on screen.
  const [switchState, switchKey] = useActionState(switchKeyAction, null);
  const [reissueState, reissue] = useActionState(reissueKeyAction, null);
  const hidden = <input type="hidden" name="keyId" value={props.keyId} />;
  // A leaked secret should be replaced, not turned back on: Reissue is the primary action, Re-enable secondary.
  const leaked = props.status === 'leaked';
  return (
    <div className="key-actions">
      <section className="panel" aria-labelledby="status-actions">
        <h3 id="status-actions">Turn on or off</h3>
        {props.status === 'disabled' || leaked || (props.status === 'replaced' && !props.inGrace) ? (
          props.status === 'replaced' ? (
            <p className="muted">
              This key was reissued; its successor is the live secret, so it cannot be re-enabled.
            </p>
          ) : (
            <ConfirmDialog
              trigger="Re-enable…"
              triggerClass={leaked ? 'secondary' : ''}
              title="Re-enable this key?"
              reopenAs="re-enable"
              confirm="Re-enable key"
              confirmClass=""
              pendingText="Re-enabling…"
              state={switchState}
              formAction={switchKey}
            >
              {hidden}
              <input type="hidden" name="turn" value="on" />
              <p>
                {props.display} of {props.owner} will accept calls again at once. Only do this when the secret is known
                to be safe.
              </p>
              {leaked && (
                <p className="alert error">
                  This key was disabled because its secret leaked: re-enabling it turns the leaked secret back on.
                  Reissue it instead, unless you know the leak report was wrong.
                </p>
              )}
              <ReasonField hint="Why it is safe to turn on again (kept in the audit trail)" />
            </ConfirmDialog>
          )
        ) : (
          <ConfirmDialog
            trigger="Disable…"
            triggerClass="danger"
            title="Disable this key?"
            reopenAs="disable"
            confirm="Disable key"
            pendingText="Disabling…"
            state={switchState}
            formAction={switchKey}
          >
            {hidden}
            <input type="hidden" name="turn" value="off" />
            <p>
              Calls with {props.display} of {props.owner} will get 401 from the next call on.
            </p>
            {props.predecessor && (
              <p>
                The previous secret, {props.predecessor.display}, still in its grace period until{' '}
                <When date={props.predecessor.worksUntil} />, stops too.
              </p>
            )}
            <ReasonField hint="For example: leaked in a public repository (link), owner’s request (ticket)" />
            <label className="radio-row" style={{ display: 'flex' }}>
              <input type="checkbox" name="leaked" value="yes" style={{ width: 'auto' }} />
              Its secret leaked: the key reads “leaked” here, for the owner and in the CLI
            </label>
            <p className="hint">
              Callers with the secret are told only that support disabled it, or that it was reported leaked, and when:
              never the reason.
            </p>
          </ConfirmDialog>
        )}
        <FormMessage state={switchState?.ok ? switchState : null} />
      </section>
      <section className="panel" aria-labelledby="reissue-actions">
        <h3 id="reissue-actions">Reissue</h3>
        {props.status === 'replaced' ? (
          <p className="muted">Already reissued; reissue its successor instead.</p>
        ) : (
          <>
            <p className="muted">
              A new secret with the same settings for the owner; this one stops working at once, or after a grace period
              you choose. The owner can reissue it themselves from their key page, even once you have disabled it, so
              nobody has to hand a secret over: reissue here only when they cannot.
            </p>
            {leaked && (
              <p>
                <strong>The secret leaked:</strong> give the owner a new one.
              </p>
            )}
            <ConfirmDialog<ReissueResult>
              trigger="Reissue…"
              triggerClass={leaked ? '' : 'secondary'}
              title="Reissue this key?"
              reopenAs="reissue"
              confirm="Reissue key"
              confirmClass=""
              state={reissueState}
              formAction={reissue}
              pendingText="Reissuing…"
              success={(state, close) => <NewSecret state={state} owner={props.owner} close={close} />}
              onClosedAfterSuccess={(state) => router.push(`/support/keys/${state.id}`)}
            >
              {hidden}
              <p>
                A new secret is shown to you once, and {props.display} stops working when you choose. Make sure you can
                reach {props.owner} securely before you go on.
              </p>
              <GraceChoice />
            </ConfirmDialog>
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="settings-actions">
        <h3 id="settings-actions">Tier and limits</h3>
        <SettingsForm keyId={props.keyId} settings={props.settings} tiers={props.tiers} />
      </section>
    </div>
  );
}
