/**
 * Production entry: one node:http (or https) server. POST /mcp goes straight to the MCP handler (no
 * Next routing on the hot path); every other request goes to Next. Transport security (HTTPS-only
 * outside loopback, HSTS) is enforced here, for the portal and /mcp alike.
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import next from 'next';
import { prepareCompoundIndex } from './lib/chem/lookup.ts';
import { config } from './lib/config.ts';
import { CLIENT_IP_HEADER, HSTS_HEADER, describeTransport, plainHttpRefusal } from './lib/http/transport-security.ts';
import { handleMcpRequest } from './lib/mcp/http.ts';
import { payloadTooLarge } from './lib/mcp/responses.ts';
import { closeMcpService } from './lib/mcp/service.ts';
import { errorText, log } from './lib/ops/log.ts';
import { startCallLogRetention } from './lib/ops/retention-schedule.ts';

const SHUTDOWN_GRACE_MS = 10_000;
const KEEP_ALIVE_MS = 65_000;

/**
 * Reads the request body, giving up past `limit` bytes. The stream is left alone rather than
 * destroyed, so the client still receives the 413 (the connection is closed after it).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).off('error', reject);
      req.resume(); // drain the rest
      resolve('too_large');
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/**
 * The MCP handler's input: a body-less Web Request carrying the method, URL and headers, and the body
 * read into memory beside it (much cheaper than a Node stream adapted to a Web stream, and the handler
 * parses it once and hands the SDK the parsed message).
 */
async function toMcpInput(req: IncomingMessage, origin: string, maxBodyBytes: number): Promise<{ request: Request; body: string | undefined } | 'too_large'> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const body = req.method === 'POST' ? await readBody(req, maxBodyBytes) : undefined;
  if (body === 'too_large') return 'too_large';
  return { request: new Request(new URL(req.url ?? '/', origin), { method: req.method, headers }), body: body?.toString('utf8') };
}

/**
 * Sends the handler's Response in one write with a Content-Length. Buffering is safe: /mcp is
 * stateless, so an SSE answer is one event and its stream ends as soon as that event is written.
 */
async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export async function startServer(): Promise<http.Server> {
  const settings = config();
  const app = next({ dev: false, dir: import.meta.dirname, hostname: 'localhost', port: settings.port });
  await Promise.all([app.prepare(), prepareCompoundIndex()]);
  const handleWithNext = app.getRequestHandler();
  const tls = settings.tlsCertFile && settings.tlsKeyFile
    ? { cert: readFileSync(settings.tlsCertFile), key: readFileSync(settings.tlsKeyFile) }
    : undefined;
  const scheme = tls ? 'https' : 'http';

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const transport = describeTransport(req, settings);
    const refusal = plainHttpRefusal(transport, settings);
    if (refusal) return sendJson(res, 403, { error: 'https_required', message: refusal });
    if (transport.secure) res.setHeader('strict-transport-security', HSTS_HEADER);

    const path = req.url?.split('?', 1)[0];
    if (path === '/mcp' && settings.mcpFastPath) {
      const input = await toMcpInput(req, `${scheme}://${req.headers.host ?? 'localhost'}`, settings.maxBodyBytes);
      const response = input === 'too_large' ? payloadTooLarge() : await handleMcpRequest(input.request, input.body);
      // Refused before its body was read (413, 415, …): close the connection rather than leave the
      // client's unsent body in the way of the next request on it.
      if (!req.complete) res.setHeader('connection', 'close');
      return writeWebResponse(response, res);
    }
    req.headers[CLIENT_IP_HEADER] = transport.clientAddress;
    await handleWithNext(req, res);
  }

  const server = tls ? https.createServer(tls) : http.createServer();
  // Idle keep-alive connections stay open longer than clients and load balancers keep theirs (commonly
  // 60 s), so a client never sends a request on a connection the server is closing at that moment.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  server.on('request', (req, res) => {
    onRequest(req, res).catch((error) => {
      log('error', 'request failed', { path: req.url?.split('?', 1)[0], error: errorText(error) });
      if (!res.headersSent) sendJson(res, 500, { error: 'internal_error', message: 'The server hit an unexpected error; it was logged. Please retry.' });
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, resolve);
  });

  const stopRetention = startCallLogRetention();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'stopping', { signal });
    stopRetention();
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    server.close(async () => {
      await closeMcpService();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return server;
}
