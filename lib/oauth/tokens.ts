/**
 * Authorization codes, connections and tokens for /mcp's OAuth clients (the SDK's OAuthServerProvider
 * methods behind its token and revocation handlers). Tokens are keys:
 * - An access token is a cf_ secret of the connection's key (KeySecret), valid for an hour, so the key
 *   check on /mcp, the limits, the usage pages and support's search all treat it as the key.
 * - A refresh token (cfr_…) lives 30 days and is replaced at every use; a replaced one coming back ends
 *   the connection, as does a code used twice (RFC 9700 §4.14, RFC 6749 §4.1.2).
 * - Codes, refresh tokens and access tokens are stored as HMACs only.
 * PKCE is verified by the SDK's token handler (S256 only, from challengeForAuthorizationCode) before
 * exchangeAuthorizationCode runs; the redirect URI and resource are checked here.
 */
import { randomBytes } from 'node:crypto';
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { type Actor, writeAudit } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { generateKey } from '../keys/format.ts';
import { hashKey } from '../keys/hash.ts';
import type { TokenEndKind } from '../keys/stop.ts';
import { announceChange, announceCommitted } from '../keys/store.ts';
import { appName } from './app-name.ts';

/** How long an access token lasts unless the operator sets OAUTH_ACCESS_TOKEN_SECONDS. */
export const ACCESS_TOKEN_TTL_MS = 3_600_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3_600_000;
export const CODE_TTL_MS = 60_000;
export const REFRESH_TOKEN_PREFIX = 'cfr_';

/** What the portal's consent step granted: this client may use this key of this user. */
interface Grant {
  clientId: string;
  userId: string;
  keyId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope?: string;
}

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** 256 random bits in hex: letters and digits only, so the log's redaction (lib/ops/redact.ts) catches a refresh token whole. */
const opaque = (prefix = '') => `${prefix}${randomBytes(32).toString('hex')}`;

export function createTokenService(db: Db, options: { now?: () => number; accessTokenTtlMs?: number } = {}) {
  const now = options.now ?? Date.now;
  const accessTtlMs = options.accessTokenTtlMs ?? ACCESS_TOKEN_TTL_MS;

  /** A new access token of the connection's key, stored as an HMAC. */
  async function issueAccess(tx: Tx, connection: { id: string; keyId: string }, at: number) {
    const token = generateKey();
    await tx.keySecret.create({
      data: {
        hash: hashKey(token),
        keyId: connection.keyId,
        connectionId: connection.id,
        expiresAt: new Date(at + accessTtlMs),
        createdAt: new Date(at),
      },
    });
    return token;
  }

  /** Ends a connection and every access token it was given; its key's caches drop them at once. */
  async function endConnection(tx: Tx, connection: { id: string; keyId: string }, how: TokenEndKind, at: number) {
    await tx.oAuthConnection.updateMany({
      where: { id: connection.id, endedAt: null },
      data: { endedAt: new Date(at), endedHow: how },
    });
    await tx.keySecret.updateMany({
      where: { connectionId: connection.id, endedAt: null },
      data: { endedAt: new Date(at), endedHow: how },
    });
    await announceChange(db, tx, connection.keyId);
  }

  const tokensOf = (access: string, refresh: string, scope: string): OAuthTokens => ({
    access_token: access,
    token_type: 'Bearer',
    expires_in: Math.round(accessTtlMs / 1000),
    refresh_token: refresh,
    ...(scope ? { scope } : {}),
  });

  function checkResource(requested: URL | undefined, bound: string): void {
    if (requested && requested.href !== bound)
      throw new InvalidTargetError(`This server issues tokens for ${bound} only, not ${requested.href}.`);
  }

  return {
    /**
     * A one-time code for the grant, to send to its redirect URI. Its resource was checked at /authorize
     * (server.ts) and reached the consent page signed (pending-request.ts).
     */
    async issueCode(grant: Grant, actor?: Actor): Promise<string> {
      const code = opaque();
      const at = now();
      await db.$transaction(async (tx) => {
        const key = await tx.apiKey.findUnique({ where: { id: grant.keyId } });
        if (key?.ownerId !== grant.userId) throw new InvalidGrantError('That key is not the signed-in user’s.');
        await tx.oAuthCode.create({
          data: {
            hash: hashKey(code),
            ...grant,
            scope: grant.scope ?? '',
            expiresAt: new Date(at + CODE_TTL_MS),
            createdAt: new Date(at),
          },
        });
        if (actor) {
          const client = await tx.oAuthClient.findUnique({ where: { id: grant.clientId }, select: { name: true } });
          await writeAudit(tx, actor, {
            action: 'oauth.allow',
            keyId: grant.keyId,
            after: {
              app: appName(client?.name ?? grant.clientId),
              clientId: grant.clientId,
              redirectUri: grant.redirectUri,
            },
          });
        }
      });
      return code;
    },

    async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
      const row = await db.oAuthCode.findUnique({ where: { hash: hashKey(code) } });
      if (!row || row.clientId !== client.client_id) throw new InvalidGrantError('Unknown authorization code.');
      return row.codeChallenge;
    },

    async exchangeAuthorizationCode(
      client: OAuthClientInformationFull,
      code: string,
      _verifier?: string,
      redirectUri?: string,
      resource?: URL,
    ): Promise<OAuthTokens> {
      const at = now();
      const outcome = await db.$transaction(async (tx) => {
        const row = await tx.oAuthCode.findUnique({ where: { hash: hashKey(code) } });
        if (!row || row.clientId !== client.client_id) throw new InvalidGrantError('Unknown authorization code.');
        if (row.usedAt) {
          const made = row.connectionId
            ? await tx.oAuthConnection.findUnique({ where: { id: row.connectionId } })
            : null;
          if (made) await endConnection(tx, made, 'code_replayed', at);
          return { replayed: true as const, keyId: made?.keyId };
        }
        if (row.expiresAt.getTime() <= at)
          throw new InvalidGrantError('The authorization code expired; authorize again.');
        if (redirectUri !== row.redirectUri)
          throw new InvalidGrantError('redirect_uri must be the one the authorization request used.');
        checkResource(resource, row.resource);
        const refresh = opaque(REFRESH_TOKEN_PREFIX);
        const connection = await tx.oAuthConnection.create({
          data: {
            clientId: row.clientId,
            keyId: row.keyId,
            userId: row.userId,
            resource: row.resource,
            scope: row.scope,
            refreshHash: hashKey(refresh),
            refreshExpiresAt: new Date(at + REFRESH_TOKEN_TTL_MS),
            createdAt: new Date(at),
          },
        });
        await tx.oAuthCode.update({
          where: { hash: row.hash },
          data: { usedAt: new Date(at), connectionId: connection.id },
        });
        await tx.oAuthClient.updateMany({
          where: { id: row.clientId, firstUsedAt: null },
          data: { firstUsedAt: new Date(at) },
        });
        return {
          replayed: false as const,
          tokens: tokensOf(await issueAccess(tx, connection, at), refresh, row.scope),
        };
      });
      if (outcome.replayed) {
        if (outcome.keyId) await announceCommitted(outcome.keyId, undefined);
        throw new InvalidGrantError('This authorization code was already used; the connection it made is ended.');
      }
      return outcome.tokens;
    },

    async exchangeRefreshToken(
      client: OAuthClientInformationFull,
      refreshToken: string,
      _scopes?: string[],
      resource?: URL,
    ): Promise<OAuthTokens> {
      const at = now();
      const hash = hashKey(refreshToken);
      const outcome = await db.$transaction(async (tx) => {
        const connection = await tx.oAuthConnection.findUnique({ where: { refreshHash: hash } });
        if (!connection) {
          const spent = await tx.oAuthSpentRefresh.findUnique({ where: { hash }, include: { connection: true } });
          if (spent && spent.connection.clientId === client.client_id) {
            await endConnection(tx, spent.connection, 'refresh_reused', at);
            return { reused: true as const, keyId: spent.connection.keyId };
          }
          throw new InvalidGrantError('Unknown refresh token.');
        }
        if (connection.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token.');
        if (connection.endedAt) throw new InvalidGrantError('This connection has ended; connect the app again.');
        if (connection.refreshExpiresAt.getTime() <= at)
          throw new InvalidGrantError('The refresh token expired; connect the app again.');
        checkResource(resource, connection.resource);
        // A new token of a key that no longer works would only be refused on /mcp: say so here, where
        // the client starts a new authorization, in which its user can pick a working key.
        const key = await tx.apiKey.findUnique({ where: { id: connection.keyId } });
        if (!key || key.disabledAt || (key.expiresAt && key.expiresAt.getTime() <= at))
          throw new InvalidGrantError(
            `The key this app's calls count against ("${key?.name ?? 'removed'}") no longer works (${key?.disabledAt ? 'disabled' : 'expired'}). Connect the app again and choose a working key.`,
          );
        const refresh = opaque(REFRESH_TOKEN_PREFIX);
        await tx.oAuthSpentRefresh.create({ data: { hash, connectionId: connection.id, spentAt: new Date(at) } });
        await tx.oAuthConnection.update({
          where: { id: connection.id },
          data: {
            refreshHash: hashKey(refresh),
            refreshExpiresAt: new Date(at + REFRESH_TOKEN_TTL_MS),
            lastRefreshedAt: new Date(at),
          },
        });
        return {
          reused: false as const,
          tokens: tokensOf(await issueAccess(tx, connection, at), refresh, connection.scope),
        };
      });
      if (outcome.reused) {
        await announceCommitted(outcome.keyId, undefined);
        throw new InvalidGrantError('This refresh token was already used, so the connection is ended. Connect again.');
      }
      return outcome.tokens;
    },

    /**
     * RFC 7009: a refresh token ends its connection; an access token stops alone. A token that is not
     * this client's, or not known, changes nothing (and the answer is the same).
     */
    async revokeToken(client: OAuthClientInformationFull, request: { token: string }): Promise<void> {
      const at = now();
      const hash = hashKey(request.token);
      const keyId = await db.$transaction(async (tx) => {
        const connection = await tx.oAuthConnection.findUnique({ where: { refreshHash: hash } });
        if (connection && connection.clientId === client.client_id) {
          await endConnection(tx, connection, 'revoked', at);
          return connection.keyId;
        }
        const secret = await tx.keySecret.findUnique({ where: { hash }, include: { connection: true } });
        if (secret?.connection && secret.connection.clientId === client.client_id && !secret.endedAt) {
          await tx.keySecret.update({ where: { hash }, data: { endedAt: new Date(at), endedHow: 'revoked' } });
          await announceChange(db, tx, secret.keyId);
          return secret.keyId;
        }
        return undefined;
      });
      if (keyId) await announceCommitted(keyId, undefined);
    },

    /**
     * What an access token stands for, for the SDK's bearer-token checks. /mcp does not use it: there the
     * token is a key, found by the key check itself.
     */
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const secret = await db.keySecret.findUnique({ where: { hash: hashKey(token) }, include: { connection: true } });
      if (!secret?.connection || secret.endedAt || secret.expiresAt.getTime() <= now())
        throw new InvalidTokenError('The access token is unknown, ended or expired.');
      return {
        token,
        clientId: secret.connection.clientId,
        scopes: secret.connection.scope ? secret.connection.scope.split(' ') : [],
        expiresAt: Math.floor(secret.expiresAt.getTime() / 1000),
        resource: new URL(secret.connection.resource),
      };
    },

    /**
     * The key's owner ends a connection from the portal ("Disconnect"); with an actor, the audit event
     * (oauth.disconnect: which app, since when) is written in the same transaction.
     */
    async disconnect(connectionId: string, userId: string, actor?: Actor): Promise<boolean> {
      const at = now();
      const keyId = await db.$transaction(async (tx) => {
        const connection = await tx.oAuthConnection.findUnique({
          where: { id: connectionId },
          include: { client: { select: { name: true } } },
        });
        if (!connection || connection.userId !== userId || connection.endedAt) return undefined;
        await endConnection(tx, connection, 'disconnected', at);
        if (actor) {
          await writeAudit(tx, actor, {
            action: 'oauth.disconnect',
            keyId: connection.keyId,
            before: {
              app: appName(connection.client.name),
              clientId: connection.clientId,
              connectedAt: connection.createdAt.toISOString(),
            },
          });
        }
        return connection.keyId;
      });
      if (keyId) await announceCommitted(keyId, undefined);
      return keyId !== undefined;
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
