/**
 * The OAuth 2.1 authorization server of /mcp, as the MCP authorization spec describes it: discovery
 * documents (RFC 9728, RFC 8414), self-registration (RFC 7591), /authorize, /token and revocation
 * (RFC 7009). The protocol is the MCP SDK's: its handlers parse and check every request (PKCE S256 only,
 * redirect URIs, grant parameters) and call this service's clients store and token service. What this
 * file adds around them:
 * - the documents, per origin, with what the SDK's router leaves out (client ID metadata documents,
 *   RFC 9207 `iss`, the root protected-resource path);
 * - client authentication by secret (client_secret_basic and client_secret_post against the stored
 *   HMAC), refused with 401 invalid_client, on which clients register again;
 * - registration bounded per client address (shared by every instance in the shared mode);
 * - /authorize hands the checked request to the portal's consent page (pending-request.ts);
 * - every redirect back to a client carries `iss`, and every error is JSON, never a stack trace.
 * server.ts routes OAUTH_PATHS here and passes each request's public origin and client address.
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidRequestError,
  InvalidTargetError,
  type OAuthError,
  ServerError,
  TooManyRequestsError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type {
  OAuthClientInformationFull,
  OAuthMetadata,
  OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Db } from '../db/client.ts';
import { hashKey } from '../keys/hash.ts';
import type { AttemptCounter } from '../limits/attempt-counter.ts';
import { errorText, log } from '../ops/log.ts';
import { type ClientsStore, registrationProblems } from './clients.ts';
import {
  AUTHORIZATION_SERVER_PATHS,
  CONSENT_PATH,
  ENDPOINT_PATHS,
  PROTECTED_RESOURCE_PATHS,
  resourceOf,
} from './paths.ts';
import { MAX_STATE_LENGTH, PENDING_REQUEST_TTL_MS, signPendingRequest } from './pending-request.ts';
import type { TokenService } from './tokens.ts';

function protectedResourceMetadata(origin: string): OAuthProtectedResourceMetadata {
  return {
    resource: resourceOf(origin),
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
    resource_documentation: `${origin}/docs`,
  };
}

function authorizationServerMetadata(origin: string): OAuthMetadata {
  const authMethods = ['none', 'client_secret_basic', 'client_secret_post'];
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${ENDPOINT_PATHS.authorize}`,
    token_endpoint: `${origin}${ENDPOINT_PATHS.token}`,
    registration_endpoint: `${origin}${ENDPOINT_PATHS.register}`,
    revocation_endpoint: `${origin}${ENDPOINT_PATHS.revoke}`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/docs`,
  };
}

/** What server.ts knows of a request that the SDK's handlers do not: where the client reached us, and from where. */
interface OAuthRequestContext {
  /** The origin clients use for this server (PUBLIC_URL's, or the request's own), which is the issuer. */
  origin: string;
  clientAddress: string | undefined;
}

interface OAuthServerOptions {
  db: Db;
  clients: ClientsStore;
  tokens: TokenService;
  /** Registrations per client address; refused beyond its limit with the time to retry. */
  registrations: AttemptCounter;
  /** The prototype node:http gives requests (server.ts's guarded one), kept under express's. */
  requestPrototype: object;
  now?: () => number;
}

function sendOAuthError(res: Response, status: number, error: OAuthError, headers: Record<string, string> = {}) {
  res
    .status(status)
    .set({ 'cache-control': 'no-store', ...headers })
    .json(error.toResponseObject());
}

/** Client ID and secret from "Authorization: Basic" (RFC 6749 §2.3.1: each form-encoded), or null. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (!header?.toLowerCase().startsWith('basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return 'malformed';
  try {
    const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Authenticates a confidential client against its stored HMAC before the SDK's own check (which only
 * compares secrets it is given, and the clients store never gives it one). Public clients pass with
 * their client_id alone, as PKCE protects their codes.
 */
function clientSecretCheck(db: Db) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const refuse = (message: string, basic: boolean) =>
      sendOAuthError(
        res,
        401,
        new InvalidClientError(message),
        basic ? { 'www-authenticate': 'Basic realm="oauth"' } : {},
      );
    const body = (req.body ?? {}) as Record<string, unknown>;
    const basic = basicCredentials(req.headers.authorization);
    if (basic === 'malformed')
      return refuse('The Basic credentials could not be read: send base64(client_id:client_secret).', true);
    if (basic && body.client_id !== undefined && body.client_id !== basic.id)
      return sendOAuthError(
        res,
        400,
        new InvalidRequestError('client_id differs between the Authorization header and the body.'),
      );
    const clientId = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    if (typeof clientId !== 'string') return next(); // the SDK's handler answers a missing client_id
    body.client_id = clientId;
    delete body.client_secret;
    req.body = body;
    if (clientId.startsWith('https://')) return next(); // a metadata-document client: public, no secret
    const row = await db.oAuthClient.findUnique({ where: { id: clientId }, select: { secretHash: true } });
    if (!row)
      return refuse(
        'Unknown client_id: this server does not know the client (it may have expired). Register again.',
        !!basic,
      );
    if (row.secretHash) {
      if (typeof secret !== 'string' || secret === '')
        return refuse('This client must authenticate with its client_secret.', !!basic);
      if (!sameHash(hashKey(secret), row.secretHash)) return refuse('The client_secret is wrong.', !!basic);
    }
    next();
  };
}

/**
 * The redirect URIs' problems in this server's words (every one, with what to do), before the SDK's
 * schema, which would stop at the first with a dump of its validation error.
 */
function redirectUriCheck(req: Request, res: Response, next: NextFunction) {
  const uris = (req.body as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  if (req.method !== 'POST' || !Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')) return next();
  const problems = registrationProblems({ redirect_uris: uris } as OAuthClientInformationFull, 'dynamic');
  if (problems.length) return sendOAuthError(res, 400, new InvalidClientMetadataError(`${problems.join('; ')}.`));
  next();
}

/** Registration is open to anyone; how often one address may register is not. */
function registrationLimit(counter: AttemptCounter) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const attempt = await counter.take(contextOf(req).clientAddress ?? 'unknown');
    if (attempt.taken) return next();
    const seconds = Math.max(1, Math.ceil(attempt.retryAfterMs / 1000));
    sendOAuthError(
      res,
      429,
      new TooManyRequestsError(
        `This address registered ${counter.limit} clients within ${counter.windowMs / 60_000} minutes, the most it may. Reuse a registration, or retry in ${seconds} s.`,
      ),
      { 'retry-after': String(seconds) },
    );
  };
}

const contexts = new WeakMap<IncomingMessage, OAuthRequestContext>();
function contextOf(req: IncomingMessage): OAuthRequestContext {
  const context = contexts.get(req);
  if (!context) throw new Error('An OAuth request reached the handlers without its context.');
  return context;
}

/**
 * The SDK describes a malformed authorization request with its schema's issue list as JSON; the client
 * shows that to its user, so it becomes "field: message" sentences.
 */
function readableDescription(text: string): string {
  if (!text.startsWith('[')) return text;
  try {
    const issues = JSON.parse(text) as { path?: unknown[]; message?: string }[];
    return issues
      .map((issue) => {
        const field = issue.path?.join('.') ?? '';
        if (field === 'code_challenge_method' || field === 'code_challenge')
          return 'PKCE is required: send code_challenge with code_challenge_method=S256 (plain is not accepted)';
        return `${field || 'request'}: ${issue.message ?? 'invalid'}`;
      })
      .join('; ');
  } catch {
    return text;
  }
}

/** Adds RFC 9207's `iss` (and a missing `state`) to every redirect back to the client (not to the consent page). */
function issuerOnRedirects(req: Request, res: Response, next: NextFunction) {
  const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
  res.redirect = ((status: number, url: string) => {
    if (url.startsWith('/')) return redirect(status, url);
    const target = new URL(url);
    const described = target.searchParams.get('error_description');
    if (described) target.searchParams.set('error_description', readableDescription(described));
    // RFC 6749 §4.1.2.1: the state comes back with an error too, also when the request failed the schema.
    const state = (req.method === 'POST' ? req.body : req.query)?.state;
    if (typeof state === 'string' && !target.searchParams.has('state')) target.searchParams.set('state', state);
    target.searchParams.set('iss', contextOf(req).origin);
    redirect(status, target.href);
  }) as Response['redirect'];
  next();
}

function documentRoute(body: (origin: string) => object) {
  return (req: Request, res: Response) => {
    res.set({ 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' });
    if (req.method === 'OPTIONS') return res.status(204).set('access-control-allow-headers', '*').end();
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return res
        .status(405)
        .set('allow', 'GET, OPTIONS')
        .json({ error: 'method_not_allowed', error_description: 'Discovery documents are read with GET.' });
    res.status(200).json(body(contextOf(req).origin));
  };
}

export function createOAuthServer(options: OAuthServerOptions) {
  const { db, clients, tokens } = options;
  const now = options.now ?? Date.now;

  async function authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
    const { origin } = contextOf(res.req);
    const resource = resourceOf(origin);
    if (params.resource && params.resource.href !== resource)
      throw new InvalidTargetError(`This server issues tokens for ${resource} only, not ${params.resource.href}.`);
    if (params.state && params.state.length > MAX_STATE_LENGTH)
      throw new InvalidRequestError(`state may be at most ${MAX_STATE_LENGTH} characters.`);
    const signed = signPendingRequest({
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      ...(params.state !== undefined ? { state: params.state } : {}),
      scope: params.scopes?.join(' ') ?? '',
      resource,
      issuer: origin,
      expiresAt: now() + PENDING_REQUEST_TTL_MS,
    });
    res.redirect(302, `${CONSENT_PATH}?request=${signed}`);
  }

  const provider: OAuthServerProvider = {
    clientsStore: clients,
    authorize,
    challengeForAuthorizationCode: tokens.challengeForAuthorizationCode,
    exchangeAuthorizationCode: tokens.exchangeAuthorizationCode,
    exchangeRefreshToken: tokens.exchangeRefreshToken,
    verifyAccessToken: tokens.verifyAccessToken,
    revokeToken: tokens.revokeToken,
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // express re-parents each request onto its own request object (whose parent is node's IncomingMessage);
  // server.ts's guarded request class goes between the two, or the body's cap and pace would stop counting.
  Object.setPrototypeOf(Object.getPrototypeOf(app.request), options.requestPrototype);

  for (const path of PROTECTED_RESOURCE_PATHS) app.all(path, documentRoute(protectedResourceMetadata));
  for (const path of AUTHORIZATION_SERVER_PATHS) app.all(path, documentRoute(authorizationServerMetadata));
  app.use(ENDPOINT_PATHS.authorize, issuerOnRedirects, authorizationHandler({ provider, rateLimit: false }));
  const formBody = express.urlencoded({ extended: false });
  app.use(ENDPOINT_PATHS.token, formBody, clientSecretCheck(db), tokenHandler({ provider, rateLimit: false }));
  app.use(ENDPOINT_PATHS.revoke, formBody, clientSecretCheck(db), revocationHandler({ provider, rateLimit: false }));
  app.use(
    ENDPOINT_PATHS.register,
    registrationLimit(options.registrations),
    express.json(),
    redirectUriCheck,
    clientRegistrationHandler({ clientsStore: clients, clientSecretExpirySeconds: 0, rateLimit: false }),
  );
  app.use((_req: Request, res: Response) =>
    sendOAuthError(
      res,
      404,
      new InvalidRequestError('No OAuth endpoint here; see /.well-known/oauth-authorization-server.'),
    ),
  );
  // Body-parser's refusals (malformed JSON or form) keep their 4xx; anything else is logged, not shown.
  app.use((error: { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return res.end();
    if (error.status && error.status >= 400 && error.status < 500)
      return sendOAuthError(
        res,
        error.status,
        new InvalidRequestError(`The request body could not be read (${error.type ?? 'malformed'}).`),
      );
    log('error', 'oauth request failed', { path: req.path, error: errorText(error) });
    sendOAuthError(res, 500, new ServerError('The server hit an unexpected error; it was logged. Please retry.'));
  });

  return {
    handle(req: IncomingMessage, res: ServerResponse, context: OAuthRequestContext): void {
      contexts.set(req, context);
      app(req, res);
    },
  };
}
