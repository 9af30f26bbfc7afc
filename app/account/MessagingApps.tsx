/**
 * The "Messaging apps" section of /account: what binding is for, a bind code for each app this server has
 * open (none open: says so and offers no code), and the followers bound to this account, each with Unbind.
 */

import type { BoundFollower } from '@/lib/channels/portal-binding.ts';
import { CHANNEL_LABELS, type ChannelName } from '@/lib/channels/types.ts';
import { BindCode } from './BindCode.tsx';
import { BoundFollowers } from './BoundFollowers.tsx';
import './account.css';

export function MessagingApps({ channels, bindings }: { channels: ChannelName[]; bindings: BoundFollower[] }) {
  const apps = channels.length ? channels.map((c) => CHANNEL_LABELS[c]).join(' or ') : 'WeChat or Telegram';
  return (
    <section aria-labelledby="messaging-apps">
      <h2 id="messaging-apps">Messaging apps</h2>
      <p className="muted">Bind a {apps} account to this one to manage your keys and see their usage from the chat.</p>
      {channels.length ? (
        <BindCode channels={channels} />
      ) : (
        <p className="empty">The messaging apps are not set up on this server, so there is nothing to bind yet.</p>
      )}
      <BoundFollowers bindings={bindings} />
    </section>
  );
}
