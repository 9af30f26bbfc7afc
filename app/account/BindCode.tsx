'use client';
/**
 * "Get a bind code": the code, large and copyable, when it stops working, and what to send in each app the
 * server has open. A new code replaces the one shown (the server stops the old one).
 */
import { useActionState, useRef } from 'react';
import { CopyButton } from '@/components/CopyButton.tsx';
import { ActionForm } from '@/components/forms/ActionForm.tsx';
import { SubmitButton } from '@/components/SubmitButton.tsx';
import type { ChannelName } from '@/lib/channels/types.ts';
import { formatUtc, formatUtcTime } from '@/lib/portal/format.ts';
import { bindCodeAction } from './actions.ts';

function HowToSend({ channel, code }: { channel: ChannelName; code: string }) {
  if (channel === 'wechat')
    return (
      <li>
        <strong>WeChat:</strong> send <code>{code}</code> as a message to the Official Account.
      </li>
    );
  return (
    <li>
      <strong>Telegram:</strong> send <code>/bind {code}</code> to the bot.
    </li>
  );
}

export function BindCode({ channels }: { channels: ChannelName[] }) {
  const [state, getCode] = useActionState(bindCodeAction, null);
  const codeText = useRef<HTMLElement>(null);
  const issued =
    state?.ok && state.code && state.expiresAt && state.minutes
      ? { code: state.code, expiresAt: state.expiresAt, minutes: state.minutes }
      : null;
  return (
    <>
      <ActionForm action={getCode} state={state} className="inline" label="Get a bind code">
        <SubmitButton className={issued ? 'secondary' : undefined} pendingText="Getting a code…">
          {issued ? 'Get a new bind code' : 'Get a bind code'}
        </SubmitButton>
      </ActionForm>
      {issued ? (
        <div className="panel bind-code">
          <div role="status">
            <p className="bind-code-label">Your bind code</p>
            <p>
              <code ref={codeText} className="bind-code-value">
                {issued.code}
              </code>
            </p>
            <p>
              It works for {issued.minutes} minutes, until{' '}
              <time dateTime={issued.expiresAt} title={formatUtc(issued.expiresAt, { seconds: true })}>
                {formatUtcTime(issued.expiresAt, { seconds: false })}
              </time>
              , once.
            </p>
          </div>
          <CopyButton text={issued.code} label="Copy code" target={codeText} />
          <ul className="bind-steps">
            {channels.map((channel) => (
              <HowToSend key={channel} channel={channel} code={issued.code} />
            ))}
          </ul>
          <p className="muted">Getting a new code stops this one.</p>
        </div>
      ) : null}
    </>
  );
}
