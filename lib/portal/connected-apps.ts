/**
 * The apps (OAuth clients such as Claude or ChatGPT connectors) a developer allowed to use their keys: which
 * key each one uses, since when, and when it last renewed its access; and "Disconnect", which ends one
 * app's access while the key works on. Only the viewer's own connections are listed or ended: another
 * developer's connection, or an id that does not exist, is PortalNotFound, never a hint that it exists.
 */
import type { Actor } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { appName } from '../oauth/app-name.ts';
import { createTokenService } from '../oauth/tokens.ts';
import { PortalInputError, PortalNotFound, type Viewer } from './access.ts';

export interface ConnectedApp {
  connectionId: string;
  /** The name the app registered itself under, as plain text (control and direction characters dropped). */
  name: string;
  /** The logo the app registered, when it is an https URL; null otherwise. */
  logoUri: string | null;
  /** When the owner allowed it (ISO). */
  connectedAt: string;
  /** When it last renewed its access token (ISO), null while it has not. */
  lastRefreshedAt: string | null;
}

/** Key id → the apps connected to that key, newest first; keys without any are absent. */
export type ConnectedAppsByKey = Record<string, ConnectedApp[]>;

const NOT_FOUND = 'No such connected app among yours.';

function httpsOnly(uri: string | null): string | null {
  if (!uri) return null;
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The viewer's live connections (not ended, refresh token not expired), per key. With `keyId`, that key's
 * only (the key page); a key that is not the viewer's has none here, so the page's own check decides.
 */
export async function connectedAppsOf(
  db: Db,
  viewer: Viewer,
  options: { keyId?: string; now?: number } = {},
): Promise<ConnectedAppsByKey> {
  const now = options.now ?? Date.now();
  const connections = await db.oAuthConnection.findMany({
    where: {
      userId: viewer.id,
      key: { ownerId: viewer.id },
      ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
      endedAt: null,
      refreshExpiresAt: { gt: new Date(now) },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: {
      id: true,
      keyId: true,
      createdAt: true,
      lastRefreshedAt: true,
      client: { select: { name: true, logoUri: true } },
    },
  });
  const byKey: ConnectedAppsByKey = {};
  for (const c of connections) {
    byKey[c.keyId] ??= [];
    byKey[c.keyId].push({
      connectionId: c.id,
      name: appName(c.client.name),
      logoUri: httpsOnly(c.client.logoUri),
      connectedAt: c.createdAt.toISOString(),
      lastRefreshedAt: c.lastRefreshedAt?.toISOString() ?? null,
    });
  }
  return byKey;
}

/**
 * The owner's "Disconnect": the connection ends with every access token it was given (the key's caches drop
 * them at once), audited with the owner as actor in the same transaction. The key itself keeps working.
 */
export async function disconnectApp(
  db: Db,
  viewer: Viewer,
  connectionId: string,
  actor: Actor,
  now = Date.now(),
): Promise<{ keyId: string; name: string }> {
  const connection =
    typeof connectionId === 'string' && connectionId
      ? await db.oAuthConnection.findUnique({
          where: { id: connectionId },
          include: { key: { select: { ownerId: true } }, client: { select: { name: true } } },
        })
      : null;
  if (!connection || connection.userId !== viewer.id || connection.key.ownerId !== viewer.id)
    throw new PortalNotFound(NOT_FOUND);
  const name = appName(connection.client.name);
  const alreadyEnded = new PortalInputError(`${name} is no longer connected to this key: its access already ended.`);
  if (connection.endedAt) throw alreadyEnded;
  const tokens = createTokenService(db, { now: () => now });
  if (!(await tokens.disconnect(connection.id, viewer.id, actor))) throw alreadyEnded;
  return { keyId: connection.keyId, name };
}
