/** Where something came from, in the words the portal shows staff and developers. */
import { CHANNEL_LABELS, type ChannelName } from './types.ts';

/** "WeChat", "Telegram", or "portal" for no channel (null); a name this version does not know is shown as stored. */
export function sourceLabel(channel: string | null): string {
  if (channel === null) return 'portal';
  return Object.hasOwn(CHANNEL_LABELS, channel) ? CHANNEL_LABELS[channel as ChannelName] : channel;
}
