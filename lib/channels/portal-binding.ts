/**
 * The portal's side of binding (/account): which messaging apps this server has open, a bind code for the
 * signed-in developer, the followers bound to them, and unbinding one. The chat's side is bindings.ts.
 */
import type { Actor } from '../audit/write.ts';
import { config, type ServiceConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { PortalInputError, PortalNotFound, type Viewer } from '../portal/access.ts';
import { BIND_CODE_MINUTES, bindingsOf, createBindCode, unbindForViewer } from './bindings.ts';
import { sourceLabel } from './labels.ts';
import { CHANNELS, type ChannelName } from './types.ts';

/** The apps this server has open (WECHAT_TOKEN, TELEGRAM_BOT_TOKEN set): /account offers bind codes for these. */
export function enabledChannels(settings: Pick<ServiceConfig, ChannelName> = config()): ChannelName[] {
  return CHANNELS.filter((channel) => settings[channel]);
}

/** "oUpF…eS6o": enough of a WeChat OpenID to tell one's own apart; a Telegram user id is short enough whole. */
export function shortFollowerId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 4)}…${id.slice(-4)}` : id;
}

export interface BoundFollower {
  id: string;
  /** "WeChat", "Telegram". */
  app: string;
  follower: string;
  since: Date;
}

export async function myBindings(db: Db, viewer: Viewer): Promise<BoundFollower[]> {
  const bindings = await bindingsOf(db, viewer.id);
  return bindings.map((b) => ({
    id: b.id,
    app: sourceLabel(b.channel),
    follower: shortFollowerId(b.externalId),
    since: b.createdAt,
  }));
}

/** A new code for the viewer (their earlier one stops working); refused when no messaging app could take it. */
export async function myBindCode(
  db: Db,
  viewer: Viewer,
  open: readonly ChannelName[] = enabledChannels(),
  now = Date.now(),
) {
  if (!open.length)
    throw new PortalInputError('The messaging apps are not set up on this server, so there is nothing to bind.');
  const { code, expiresAt } = await createBindCode(db, viewer.id, now);
  return { code, expiresAt: expiresAt.toISOString(), minutes: BIND_CODE_MINUTES };
}

/** Unbinds one of the viewer's followers; PortalNotFound when it is not theirs or already gone (unbound from the chat). */
export async function unbindMine(db: Db, viewer: Viewer, bindingId: string, actor: Actor): Promise<BoundFollower> {
  const binding = (await myBindings(db, viewer)).find((b) => b.id === bindingId);
  if (!binding || !(await unbindForViewer(db, viewer, bindingId, actor)))
    throw new PortalNotFound('That follower is not bound to your account (any more); reload the page.');
  return binding;
}
