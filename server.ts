/**
 * The production entry (`npm start` bundles this file and runs it; see scripts/launch.mjs). At start it
 * migrates and seeds the database, mirrors the built-in compound data into it and registers the
 * imported compounds with the tools, then serves. On first start it prints the admin's one-time
 * password and a demo key.
 *
 * One node:http (or https) server. POST /mcp goes straight to the MCP handler (no
 * Next routing on the hot path); every other request goes to Next. Transport security (HTTPS-only
 * outside loopback, HSTS) and the security headers (CSP, framing, no-sniff) are set here, for the
 * portal and /mcp alike, and so are the limits every request meets before anything reads it: its
 * body's cap and pace (lib/http/body-guard.ts), and what one address may hold open or in progress
 * (lib/http/address-limits.ts).
 */
import { readFileSync } from 'node:fs';
import http, { type ServerResponse } from 'node:http';
import https from 'node:https';
import next from 'next';
import { githubConfigured } from './lib/auth/github.ts';
import { dataLayerSummary, formatLayerSummary } from './lib/chem/data-layers.ts';
import { prepareCompoundIndex } from './lib/chem/lookup.ts';
import { setChemDataDir } from './lib/chem/third-party-data.ts';
import { serveBundledChemSep } from './lib/compounds/bundled-chemsep.ts';
import { prepareCompounds } from './lib/compounds/startup.ts';
import { chemDataDirSetting, config, databaseUrl } from './lib/config.ts';
import { closeDb, getDb } from './lib/db/client.ts';
import { migrateDatabase } from './lib/db/migrate.ts';
import { capConnectionsPerAddress, onRefusedConnection, RequestsInFlight } from './lib/http/address-limits.ts';
import { BodyGuard, GuardedRequest, NO_HEADERS } from './lib/http/body-guard.ts';
import { CROSS_SITE_MESSAGE, isCrossSite } from './lib/http/cross-site.ts';
import { trackConnections } from './lib/http/graceful-close.ts';
import { requestHost } from './lib/http/request-host.ts';
import { setApiHeaders, setDocumentHeaders } from './lib/http/security-headers.ts';
import { CLIENT_IP_HEADER, describeTransport, HSTS_HEADER, plainHttpRefusal } from './lib/http/transport-security.ts';
import { attemptCounter } from './lib/limits/attempt-counter.ts';
import { earlyAnswerCors } from './lib/mcp/cors.ts';
import { createMcpHandler } from './lib/mcp/handler.ts';
import { hostRefusal } from './lib/mcp/host-check.ts';
import { nodeMcpRequest, writeMcpAnswer } from './lib/mcp/node-request.ts';
import { closeMcpService, getMcpService } from './lib/mcp/service.ts';
import { createClientsStore } from './lib/oauth/clients.ts';
import { CONSENT_PATH, OAUTH_PATHS, publicOrigin } from './lib/oauth/paths.ts';
import { createOAuthServer } from './lib/oauth/server.ts';
import { createTokenService } from './lib/oauth/tokens.ts';
import { errorText, log } from './lib/ops/log.ts';
import { seedDatabase } from './lib/portal/first-start.ts';
import { PROJECT_ROOT } from './lib/project-root.ts';
import { startCallLogRetention } from './lib/usage/retention-schedule.ts';

/** `npm run dev` (server.ts --dev under tsx watch): Next compiles pages on demand and hot-reloads them. */
const DEV = process.argv.includes('--dev');
const SHUTDOWN_GRACE_MS = 10_000;
const KEEP_ALIVE_MS = 65_000;
const REQUEST_TIMEOUT_MARGIN_MS = 5000;
const CONNECTIONS_CHECK_MS = 1000;
const HOUR_MS = 3_600_000;

function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

async function startServer(): Promise<http.Server> {
  const settings = config();
  const app = next({ dev: DEV, dir: PROJECT_ROOT, hostname: 'localhost', port: settings.port });
  await Promise.all([app.prepare(), prepareCompoundIndex()]);
  const handleWithNext = app.getRequestHandler();
  // Built before listening, so Next's routes and actions find this set (lib/process-shared.ts), never one of their own.
  const handleMcp = createMcpHandler(getMcpService());
  const tls =
    settings.tlsCertFile && settings.tlsKeyFile
      ? { cert: readFileSync(settings.tlsCertFile), key: readFileSync(settings.tlsKeyFile) }
      : undefined;

  const githubSignIn = githubConfigured();
  const bodyGuard = new BodyGuard({
    timeoutMs: settings.bodyTimeoutMs,
    minBytesPerSecond: settings.bodyMinBytesPerSecond,
  });
  const inFlight = new RequestsInFlight(settings.maxRequestsPerAddress);
  const oauth = createOAuthServer({
    db: getDb(),
    clients: createClientsStore(getDb()),
    tokens: createTokenService(getDb(), { accessTokenTtlMs: settings.oauthAccessTokenSeconds * 1000 }),
    registrations: attemptCounter('oauth-registration', settings.clientRegistrationsPerHour, HOUR_MS),
    requestPrototype: GuardedRequest.prototype,
  });

  async function onRequest(req: GuardedRequest, res: ServerResponse): Promise<void> {
    if (onRefusedConnection(req)) return;
    const path = req.url?.split('?', 1)[0];
    // A browser MCP client reads the refusals written before the handler runs (413, 408, 429) as themselves.
    const earlyCors = path === '/mcp' ? earlyAnswerCors(req.headers, settings.trustProxy) : NO_HEADERS;
    // First, before anything reads the body: its cap and pace hold from the first byte.
    if (!bodyGuard.admit(req, res, path ?? '/', earlyCors)) return;
    const transport = describeTransport(req, settings);
    if (!inFlight.admit(transport.clientAddress, res))
      return sendJson(
        res,
        429,
        { error: 'too_many_requests', message: inFlight.refusalMessage },
        { 'retry-after': '1', ...earlyCors },
      );
    const mcpPath = path === '/mcp';
    const oauthPath = path !== undefined && OAUTH_PATHS.has(path);
    if (mcpPath || oauthPath) setApiHeaders(res);
    else {
      // Next reads the script nonce from the request's own CSP header (lib/http/security-headers.ts);
      // whatever a client sent under that name is replaced.
      req.headers['content-security-policy'] = setDocumentHeaders(res, {
        secure: transport.secure,
        githubSignIn,
        appLogos: path === CONSENT_PATH,
        dev: DEV,
      });
    }
    const refusal = plainHttpRefusal(transport, settings);
    if (refusal) return sendJson(res, 403, { error: 'https_required', message: refusal });
    if (transport.secure) res.setHeader('strict-transport-security', HSTS_HEADER);

    // The origin clients reached: PUBLIC_URL's, or this request's scheme and (allowed) host.
    const origin = publicOrigin(
      `${transport.secure ? 'https' : 'http'}://${requestHost(req.headers.host, req.headers['x-forwarded-host'] as string | undefined, settings.trustProxy) ?? 'localhost'}`,
      settings.publicUrl,
    );
    if (mcpPath) {
      const answer = await handleMcp(nodeMcpRequest(req, origin, transport.clientAddress));
      return writeMcpAnswer(req, res, answer);
    }
    // OAuth's documents and endpoints (lib/oauth/server.ts), under the same DNS-rebinding rule as /mcp:
    // the issuer they name comes from the Host header unless PUBLIC_URL is set.
    if (oauthPath) {
      const wrongHost = hostRefusal(nodeMcpRequest(req, origin, transport.clientAddress));
      if (wrongHost) return writeMcpAnswer(req, res, wrongHost);
      return oauth.handle(req, res, { origin, clientAddress: transport.clientAddress });
    }
    if (isCrossSite(req, path ?? '/', settings.trustProxy))
      return sendJson(res, 403, { error: 'cross_site_request', message: CROSS_SITE_MESSAGE });
    req.headers[CLIENT_IP_HEADER] = transport.clientAddress;
    // Auth.js decides Secure cookies (and their __Secure-/__Host- names) from X-Forwarded-Proto, and Next
    // checks a server action's Origin against X-Forwarded-Host. Both must be what the transport check
    // found, not what a client claimed: the scheme is stamped, and a forwarded host counts only from a
    // trusted proxy.
    req.headers['x-forwarded-proto'] = transport.secure ? 'https' : 'http';
    if (!settings.trustProxy) delete req.headers['x-forwarded-host'];
    await handleWithNext(req, res);
  }

  const serverOptions: http.ServerOptions<typeof GuardedRequest> = {
    IncomingMessage: GuardedRequest,
    // Headers slower than headersTimeout get node's 408; requestTimeout backs the body guard's own limits.
    headersTimeout: settings.headersTimeoutMs,
    requestTimeout: settings.headersTimeoutMs + settings.bodyTimeoutMs + REQUEST_TIMEOUT_MARGIN_MS,
    // How often node checks those timeouts (its default, 30 s, would let a slow client stay that much longer).
    connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
  };
  const server = tls ? https.createServer({ ...serverOptions, ...tls }) : http.createServer(serverOptions);
  capConnectionsPerAddress(server, settings.maxConnectionsPerAddress);
  const closeServer = trackConnections(server);
  // Idle keep-alive connections stay open longer than clients and load balancers keep theirs (commonly
  // 60 s), so a client never sends a request on a connection the server is closing at that moment.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Next's development build reloads the browser over a WebSocket; production serves none.
  if (DEV) server.on('upgrade', app.getUpgradeHandler());
  server.on('request', (req: GuardedRequest, res: ServerResponse) => {
    onRequest(req, res).catch((error) => {
      // The body guard answered (413, 408) while a reader waited for the body: that read fails, as it should.
      if (req.refusal) return;
      log('error', 'request failed', { path: req.url?.split('?', 1)[0], error: errorText(error) });
      if (!res.headersSent)
        sendJson(res, 500, {
          error: 'internal_error',
          message: 'The server hit an unexpected error; it was logged. Please retry.',
        });
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, resolve);
  });

  const stopRetention = startCallLogRetention();
  let stopping = false;
  // Graceful stop: stop accepting connections, let the requests in flight finish and their connections
  // close, commit pending usage, close the database connections, exit 0. What is still running after
  // the grace period is cut off: exit 1.
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drained = closeServer();
    log('info', 'stopping: no new connections, finishing the requests in flight', { signal });
    setTimeout(() => {
      log('error', 'not stopped within the grace period; exiting with what is still running cut off', {
        signal,
        graceMs: SHUTDOWN_GRACE_MS,
      });
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    drained
      .then(() => Promise.all([stopRetention(), closeMcpService()]))
      .then(closeDb)
      .then(() => {
        log('info', 'stopped', { signal });
        process.exit(0);
      })
      .catch((error) => {
        log('error', 'graceful stop failed', { signal, error: errorText(error) });
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return server;
}

/** Prepares the database and the compound catalogue, serves, and prints where (and, once, the first admin). */
async function main(): Promise<void> {
  const settings = config();
  setChemDataDir(chemDataDirSetting());
  const { applied } = await migrateDatabase(databaseUrl());
  if (applied.length) console.log(`Database migrated: ${applied.join(', ')}`);
  const seeded = await seedDatabase(getDb());
  const compounds = await prepareCompounds(getDb());
  const { created, updated, deleted } = compounds.builtin;
  if (created || updated || deleted)
    console.log(`Built-in compounds stored: ${created} new, ${updated} changed, ${deleted} removed.`);
  if (compounds.served) console.log(`Imported compounds served: ${compounds.served}.`);
  const overridden = new Set(compounds.overridden.map((o) => o.builtin.name));
  for (const { name, reason } of compounds.builtin.blocked) {
    console.warn(
      `Built-in ${name} is not stored in the table (${overridden.has(name) ? 'an import overrides it' : 'it is still served'}): ${reason}.`,
    );
  }
  for (const { builtin, by } of compounds.overridden)
    console.warn(
      `Built-in ${builtin.name} (${builtin.cas}) is overridden by the imported ${by.name} (${by.cas}), served in its place.`,
    );
  for (const { name, reason } of compounds.left) console.warn(`Imported compound ${name} is not served: ${reason}.`);
  // Parsed here (about two seconds) rather than inside the first call that needs them.
  console.log(formatLayerSummary(dataLayerSummary()));
  console.log(`ChemSep compounds outside the catalogue served by name: ${serveBundledChemSep()}.`);
  await startServer();
  const scheme = settings.tlsCertFile ? 'https' : 'http';
  const url = `${scheme}://localhost:${settings.port}`;
  if (seeded.admin) {
    console.log(
      [
        '',
        'First start: an admin account and a demo key were created. They are shown only now.',
        `  Admin email:        ${seeded.admin.email}`,
        `  One-time password:  ${seeded.admin.password}   (signing in with it asks for a new one first)`,
        `  Demo key (free):    ${seeded.admin.demoKey}`,
        '',
      ].join('\n'),
    );
  }
  console.log(`ChemFlow is serving the portal at ${url}/ and MCP at ${url}/mcp`);
}

main().catch((error) => {
  console.error(`Could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
