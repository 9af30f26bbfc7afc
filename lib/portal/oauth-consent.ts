/**
 * The consent step of /mcp's OAuth: the signed-in user sees which app asks, where it will be sent back
 * and what it may do, picks the key its calls count against (a new one named after the app, or one of
 * theirs), and allows or denies. Allowing issues a one-time code for the app's redirect URI; denying sends
 * access_denied there. Both carry the request's `state` and this server as `iss` (RFC 9207).
 * The request arrives signed from /authorize (lib/oauth/pending-request.ts); the form carries a token
 * bound to the user, and server.ts refuses cross-site posts.
 */
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import type { Actor } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { displayKey } from '../keys/format.ts';
import { KEY_NAME_MAX } from '../keys/name.ts';
import { appName } from '../oauth/app-name.ts';
import type { ClientsStore } from '../oauth/clients.ts';
import {
  consentToken,
  consentTokenMatches,
  type PendingRequest,
  readPendingRequest,
} from '../oauth/pending-request.ts';
import { createTokenService } from '../oauth/tokens.ts';
import { PortalInputError, type Viewer } from './access.ts';
import { activeKeyCount, createMyKey, MAX_ACTIVE_KEYS } from './keys.ts';

/** The choice that makes a new key for the app. */
export const NEW_KEY = 'new';
const CONNECTOR_SUFFIX = ' (connector)';

interface ConsentView {
  signed: string;
  request: PendingRequest;
  clientName: string;
  /** Shown only when it is an https URL. */
  logoUri?: string;
  /** Where the browser goes after the decision: a host, or the app's own scheme. */
  redirectTarget: string;
  newKeyName: string;
  /** False when the account holds as many active keys as it may: only an existing key can be chosen. */
  canCreateKey: boolean;
  keys: { id: string; name: string; display: string; tier: string }[];
  csrf: string;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; problem: string };

/** "Claude (connector)", cut so the key name stays within its limit. */
export function connectorKeyName(clientName: string): string {
  const room = KEY_NAME_MAX - CONNECTOR_SUFFIX.length;
  const chars = [...appName(clientName)];
  const name = chars.length > room ? `${chars.slice(0, room - 1).join('')}…` : chars.join('');
  return `${name}${CONNECTOR_SUFFIX}`;
}

function redirectTarget(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//${url.host}`;
}

/** The app and its redirect URI as registered now (a removed app or URI ends the request). */
async function checkedClient(
  clients: ClientsStore,
  request: PendingRequest,
): Promise<Outcome<{ name: string; logoUri?: string }>> {
  let client: Awaited<ReturnType<ClientsStore['getClient']>>;
  try {
    client = await clients.getClient(request.clientId);
  } catch (error) {
    return { ok: false, problem: `The app's registration could not be read: ${(error as Error).message}` };
  }
  if (!client?.redirect_uris.some((registered) => redirectUriMatches(request.redirectUri, registered)))
    return { ok: false, problem: 'This app is no longer registered here. Start the connection from the app again.' };
  const logo = client.logo_uri?.startsWith('https://') ? client.logo_uri : undefined;
  return { ok: true, value: { name: appName(client.client_name ?? ''), ...(logo ? { logoUri: logo } : {}) } };
}

export async function consentView(
  db: Db,
  clients: ClientsStore,
  viewer: Viewer,
  signed: unknown,
  now = Date.now(),
): Promise<Outcome<ConsentView>> {
  const read = readPendingRequest(signed, now);
  if (!read.ok) return read;
  const client = await checkedClient(clients, read.request);
  if (!client.ok) return client;
  const [keys, active] = await Promise.all([
    db.apiKey.findMany({
      where: { ownerId: viewer.id, disabledAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date(now) } }] },
      orderBy: { createdAt: 'desc' },
      select: { id: true, name: true, start: true, end: true, tierId: true },
    }),
    activeKeyCount(db, viewer, now),
  ]);
  return {
    ok: true,
    value: {
      signed: signed as string,
      request: read.request,
      clientName: client.value.name,
      ...(client.value.logoUri ? { logoUri: client.value.logoUri } : {}),
      redirectTarget: redirectTarget(read.request.redirectUri),
      newKeyName: connectorKeyName(client.value.name),
      canCreateKey: active < MAX_ACTIVE_KEYS,
      keys: keys.map((k) => ({ id: k.id, name: k.name, display: displayKey(k), tier: k.tierId })),
      csrf: consentToken(signed as string, viewer.id),
    },
  };
}

/** The redirect URI with the answer's parameters, the request's state and this issuer. */
function answerUrl(request: PendingRequest, params: Record<string, string>): string {
  const url = new URL(request.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  url.searchParams.set('iss', request.issuer);
  return url.href;
}

interface ConsentForm {
  request?: unknown;
  csrf?: unknown;
  decision?: unknown;
  key?: unknown;
}

/**
 * The user's decision: where to send the browser, or why nothing was decided (with the request, when the
 * consent page can be shown again).
 */
export async function decideConsent(
  db: Db,
  clients: ClientsStore,
  viewer: Viewer,
  form: ConsentForm,
  actor: Actor,
  now = Date.now(),
): Promise<{ ok: true; redirectTo: string } | { ok: false; problem: string; retry?: string }> {
  const read = readPendingRequest(form.request, now);
  if (!read.ok) return read;
  const signed = form.request as string;
  if (!consentTokenMatches(form.csrf, signed, viewer.id))
    return {
      ok: false,
      problem: 'This form was not made for your session. Open the connection page again.',
      retry: signed,
    };
  const { request } = read;
  if (form.decision === 'deny')
    return {
      ok: true,
      redirectTo: answerUrl(request, { error: 'access_denied', error_description: 'The user denied the request.' }),
    };
  if (form.decision !== 'allow') return { ok: false, problem: 'Choose Allow or Deny.', retry: signed };
  const client = await checkedClient(clients, request);
  if (!client.ok) return client;

  let keyId: string;
  if (form.key === NEW_KEY || form.key === undefined) {
    try {
      const made = await createMyKey(
        db,
        viewer,
        { name: connectorKeyName(client.value.name), expiryDays: null },
        actor,
        now,
      );
      keyId = made.key.id;
    } catch (error) {
      if (error instanceof PortalInputError || error instanceof KeyStoreError)
        return { ok: false, problem: `${error.message} Or choose one of your keys for this app.`, retry: signed };
      throw error;
    }
  } else {
    const key = await db.apiKey.findFirst({
      where: {
        id: typeof form.key === 'string' ? form.key : '',
        ownerId: viewer.id,
        disabledAt: null,
        OR: [{ expiresAt: null }, { expiresAt: { gt: new Date(now) } }],
      },
    });
    if (!key) return { ok: false, problem: 'That key is not one of your active keys. Choose another.', retry: signed };
    keyId = key.id;
  }
  const code = await createTokenService(db, { now: () => now }).issueCode(
    {
      clientId: request.clientId,
      userId: viewer.id,
      keyId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scope: request.scope,
    },
    actor,
  );
  return { ok: true, redirectTo: answerUrl(request, { code }) };
}
