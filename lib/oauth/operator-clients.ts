/**
 * The OAuth clients the service's operator manages from the command line (`cli oauth-client …`):
 * - add: a client the operator vouches for, which may use a custom-scheme redirect URI (a desktop app's
 *   "myapp://callback") that self-registration refuses; a confidential one gets a secret, shown once and
 *   kept as an HMAC only, and authenticates at the token endpoint with HTTP Basic.
 * - list: the clients with their redirect URIs and how many connections each holds.
 * - remove: any client, operator-registered or self-registered. Its connections and codes go with it, and
 *   the access tokens it was given stop at once; each stopped token is kept until its expiry, detached
 *   from the deleted connection, so that its refusal says the client was removed.
 * Every add and remove is audited in the same transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { type Actor, writeAudit } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { hashKey } from '../keys/hash.ts';
import { announceChange, announceCommitted } from '../keys/store.ts';
import { registrationProblems } from './clients.ts';
import { OperatorClientError } from './operator-client-error.ts';

/** A client secret's prefix: recognisable in a config file, and never mistaken for a key (cf_…). */
export const CLIENT_SECRET_PREFIX = 'cfcs_';

interface OperatorClientInput {
  name: string;
  redirectUris: string[];
  logoUri?: string;
  clientUri?: string;
  /** A confidential client gets a secret; a public one (a desktop or mobile app) relies on PKCE alone. */
  confidential: boolean;
}

interface AddedClient {
  id: string;
  name: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: 'none' | 'client_secret_basic';
  /** The confidential client's secret: returned here once, stored nowhere. */
  secret?: string;
}

export interface ClientListing {
  id: string;
  name: string;
  registeredBy: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  createdAt: Date;
  firstUsedAt: Date | null;
  /** Connections that have not ended (each is a user's key given to the client). */
  liveConnections: number;
}

type ClientRow = {
  id: string;
  name: string;
  redirectUris: string;
  logoUri: string | null;
  clientUri: string | null;
  registeredBy: string;
  tokenEndpointAuthMethod: string;
};

/** What the audit trail keeps of a client: never its secret or the secret's HMAC. */
function auditView(row: ClientRow) {
  return {
    clientId: row.id,
    name: row.name,
    registeredBy: row.registeredBy,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    logoUri: row.logoUri,
    clientUri: row.clientUri,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
  };
}

/**
 * Registers a client as the operator: held to the same rules as self-registration, except that a
 * custom-scheme redirect URI is allowed (redirect-uris.ts). Every problem is reported at once.
 */
export async function addOperatorClient(
  db: Db,
  input: OperatorClientInput,
  actor: Actor,
  now: () => number = Date.now,
): Promise<AddedClient> {
  const id = randomUUID();
  const name = input.name.trim();
  const method = input.confidential ? 'client_secret_basic' : 'none';
  const metadata: OAuthClientInformationFull = {
    client_id: id,
    client_name: name,
    redirect_uris: input.redirectUris,
    ...(input.logoUri !== undefined ? { logo_uri: input.logoUri } : {}),
    ...(input.clientUri !== undefined ? { client_uri: input.clientUri } : {}),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
  };
  const problems = [
    ...(name ? [] : ['the client needs a name, shown to people when they connect it']),
    ...registrationProblems(metadata, 'operator'),
  ];
  if (problems.length)
    throw new OperatorClientError('invalid', `The client was not added: ${problems.join('; ')}.`, problems);

  const secret = input.confidential ? `${CLIENT_SECRET_PREFIX}${randomBytes(32).toString('base64url')}` : undefined;
  await db.$transaction(async (tx) => {
    const row = await tx.oAuthClient.create({
      data: {
        id,
        name,
        redirectUris: JSON.stringify(input.redirectUris),
        logoUri: input.logoUri || null,
        clientUri: input.clientUri || null,
        registeredBy: 'operator',
        tokenEndpointAuthMethod: method,
        secretHash: secret ? hashKey(secret) : null,
        createdAt: new Date(now()),
      },
    });
    await writeAudit(tx, actor, { action: 'oauth_client.add', after: auditView(row) });
  });
  return {
    id,
    name,
    redirectUris: [...input.redirectUris],
    tokenEndpointAuthMethod: method,
    ...(secret ? { secret } : {}),
  };
}

/** The clients, oldest first: the operator's alone, the self-registered alone, or all ('all', the default). */
export async function listClients(
  db: Db,
  options: { registeredBy?: 'operator' | 'dynamic' | 'all' } = {},
): Promise<ClientListing[]> {
  const registeredBy = options.registeredBy ?? 'all';
  const rows = await db.oAuthClient.findMany({
    where: registeredBy === 'all' ? {} : { registeredBy },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { _count: { select: { connections: { where: { endedAt: null } } } } },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    registeredBy: row.registeredBy,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    createdAt: row.createdAt,
    firstUsedAt: row.firstUsedAt,
    liveConnections: row._count.connections,
  }));
}

interface RemovedClient {
  id: string;
  name: string;
  registeredBy: string;
  /** Connections that were live until the removal. */
  connectionsEnded: number;
  /** Access tokens that still worked until the removal. */
  tokensEnded: number;
}

/**
 * Removes a client, in one transaction: its live access tokens stop ('client_removed'), and every token it
 * was given is detached from its connection so that it outlives the connection's deletion until its own
 * expiry and its refusal can say why; then its codes and the client go, and its connections and their
 * spent refresh tokens with it (ON DELETE CASCADE). The keys' caches drop the tokens once it commits.
 */
export async function removeClient(
  db: Db,
  clientId: string,
  actor: Actor,
  now: () => number = Date.now,
): Promise<RemovedClient> {
  const at = new Date(now());
  const outcome = await db.$transaction(async (tx) => {
    const client = await tx.oAuthClient.findUnique({ where: { id: clientId } });
    if (!client)
      throw new OperatorClientError(
        'not_found',
        `No OAuth client with id ${JSON.stringify(clientId.slice(0, 200))}; "oauth-client list --all" lists every client.`,
      );
    const connections = await tx.oAuthConnection.findMany({
      where: { clientId },
      select: { keyId: true, endedAt: true },
    });
    const ofClient = { connection: { clientId } };
    const { count: tokensEnded } = await tx.keySecret.updateMany({
      where: { ...ofClient, endedAt: null },
      data: { endedAt: at, endedHow: 'client_removed' },
    });
    await tx.keySecret.updateMany({ where: ofClient, data: { connectionId: null } });
    await tx.oAuthCode.deleteMany({ where: { clientId } });
    await tx.oAuthClient.delete({ where: { id: clientId } });
    const connectionsEnded = connections.filter((c) => c.endedAt === null).length;
    const keyIds = [...new Set(connections.map((c) => c.keyId))];
    for (const keyId of keyIds) await announceChange(db, tx, keyId);
    await writeAudit(tx, actor, {
      action: 'oauth_client.remove',
      before: { ...auditView(client), liveConnections: connectionsEnded },
    });
    return {
      removed: { id: client.id, name: client.name, registeredBy: client.registeredBy, connectionsEnded, tokensEnded },
      keyIds,
    };
  });
  for (const keyId of outcome.keyIds) await announceCommitted(keyId, undefined);
  return outcome.removed;
}
