import type { Metadata } from 'next';
import { When } from '@/components/When.tsx';
import { enabledChannels, myBindings } from '@/lib/channels/portal-binding.ts';
import { getDb } from '@/lib/db/client.ts';
import { myAccount } from '@/lib/portal/account.ts';
import { requireViewer } from '@/lib/portal/viewer.ts';
import { changePasswordAction } from './actions.ts';
import { MessagingApps } from './MessagingApps.tsx';
import { PasswordForm } from './PasswordForm.tsx';

export const metadata: Metadata = { title: 'Your account' };

export default async function AccountPage({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  const viewer = await requireViewer('/account');
  const { changed } = await searchParams;
  const [account, bindings] = await Promise.all([myAccount(getDb(), viewer), myBindings(getDb(), viewer)]);
  return (
    <>
      <h1>Your account</h1>
      <section className="panel" aria-label="Account details">
        <dl className="facts">
          <dt>Email</dt>
          <dd>{account.email}</dd>
          {account.name ? (
            <>
              <dt>Name</dt>
              <dd>{account.name}</dd>
            </>
          ) : null}
          <dt>Role</dt>
          <dd>{account.role}</dd>
          <dt>Member since</dt>
          <dd>
            <When date={account.createdAt} />
          </dd>
          <dt>API keys</dt>
          <dd>{account.keys}</dd>
        </dl>
      </section>
      <p className="muted">
        &ldquo;Sign out&rdquo; ends every session of this account, on every device and browser, including copies of its
        cookie.
      </p>
      <h2>Change password</h2>
      {changed === '1' ? (
        <p className="alert success" role="status">
          Password changed. Every other session of this account has ended; this browser stays signed in.
        </p>
      ) : null}
      {account.hasPassword ? (
        <>
          <p className="muted">Changing it ends every other session of this account; this browser stays signed in.</p>
          <PasswordForm action={changePasswordAction} />
        </>
      ) : (
        <p className="empty">You sign in with GitHub, so there is no password to change here.</p>
      )}
      <MessagingApps channels={enabledChannels()} bindings={bindings} />
    </>
  );
}
