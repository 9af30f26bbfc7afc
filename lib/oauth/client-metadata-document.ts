/**
 * Clients that name themselves by an https URL (OAuth Client ID Metadata Documents,
 * draft-ietf-oauth-client-id-metadata-document, as the MCP authorization spec uses them): the JSON
 * document at that URL is the client's registration, fetched when the client first shows up.
 * - The URL is the client_id itself, so it is held to the draft's rules (https, a path, no fragment,
 *   credentials or dot segments) and the document's client_id must be exactly that URL.
 * - Only public clients: a document anyone can read cannot hold a secret, so token_endpoint_auth_method
 *   must be none; redirect URIs pass the same rules as a self-registered client's (clients.ts).
 * - Any client can make this server fetch a URL, so the fetch must not reach what only the server can
 *   reach (SSRF): the host name is resolved once, every address must be public unicast, and the socket
 *   goes to the vetted address itself, so a second resolution cannot answer with another one (DNS
 *   rebinding). No redirects are followed, the body is capped and the whole fetch has a deadline.
 * - Documents are cached by URL for their Cache-Control max-age (within bounds), failures briefly, and
 *   concurrent requests for one URL share a fetch, so a flood of authorizations is not a flood of fetches.
 */
import { lookup } from 'node:dns/promises';
import https from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { type OAuthClientInformationFull, OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import ipaddr from 'ipaddr.js';
import { registrationProblems } from './clients.ts';

const MAX_CLIENT_ID_URL_LENGTH = 2_000;
/** Documents are a few hundred bytes; the draft suggests servers take up to 5 KiB. */
const DEFAULT_MAX_DOCUMENT_BYTES = 5 * 1024;
/** For resolving, connecting and reading the whole document. */
const DEFAULT_FETCH_TIMEOUT_MS = 3_000;
export const MIN_CACHE_MS = 5 * 60_000;
export const MAX_CACHE_MS = 24 * 3_600_000;
/** How long a document is kept when its response sets no max-age. */
export const DEFAULT_CACHE_MS = 3_600_000;
/** How long a failure is remembered, so retries of a broken URL do not each fetch it. */
export const FAILURE_CACHE_MS = 30_000;
const MAX_CACHED_DOCUMENTS = 1_000;

/** IANA's global unicast space: an IPv6 address outside it is nothing this server should fetch from. */
const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3');

export interface ResolvedAddress {
  address: string;
  family: number;
}

type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export interface ClientMetadataFetcherOptions {
  /** Every address of a host name; dns.promises.lookup by default. */
  resolve?: Resolve;
  /** Certificates to trust instead of the system's roots. */
  ca?: string | Buffer;
  /** The clock for cache lifetimes. */
  now?: () => number;
  maxBytes?: number;
  timeoutMs?: number;
  /**
   * Test-only: where the socket for an address that passed the guard actually connects, so a test can
   * send a public-looking address's connection to a local server. Production leaves it unset and
   * connects to the vetted address and the URL's port.
   */
  dial?: (address: string, port: number) => { host: string; port: number };
}

export interface ClientMetadataFetcher {
  /** The client the document at `url` describes; throws InvalidClientError saying what is wrong. */
  getClient(url: string): Promise<OAuthClientInformationFull>;
}

interface Loaded {
  client: OAuthClientInformationFull;
  lifetimeMs: number;
}

interface CacheEntry {
  client: Promise<OAuthClientInformationFull>;
  /** Infinity while the fetch is in flight. */
  expiresAt: number;
}

/** Whether a client_id names a metadata document (rather than a client registered here). */
export function isClientMetadataUrl(clientId: string): boolean {
  return URL.canParse(clientId) && new URL(clientId).protocol === 'https:';
}

const unbracketed = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Whether `address` is public unicast: not loopback, private, link-local, reserved, multicast or the like. */
function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  // IPv4-mapped, NAT64 and other addresses that embed an IPv4 one are not unicast here, or lie outside
  // 2000::/3, so none can carry a private IPv4 address past this check.
  const v6 = ip as ipaddr.IPv6;
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_IPV6);
}

/** The path as written, before URL parsing would resolve "." and ".." segments away. */
function rawPath(clientId: string): string {
  const afterScheme = clientId.slice(clientId.indexOf('//') + 2);
  const pathStart = afterScheme.search(/[/\\?#]/);
  return pathStart === -1 ? '' : afterScheme.slice(pathStart).split(/[?#]/)[0];
}

function hasDotSegment(path: string): boolean {
  return path.split(/[/\\]/).some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/** Why `clientId` cannot name a metadata document, or null when it can. */
function clientIdUrlProblem(clientId: string): string | null {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) return `is longer than ${MAX_CLIENT_ID_URL_LENGTH} characters`;
  if (!URL.canParse(clientId)) return 'is not an absolute URL';
  const url = new URL(clientId);
  if (url.protocol !== 'https:') return 'is not an https URL; a client ID metadata document is fetched only over https';
  if (url.username !== '' || url.password !== '') return 'carries a user name or password, which it may not';
  if (clientId.includes('#')) return 'has a fragment (#…), which it may not';
  if (hasDotSegment(rawPath(clientId))) return 'has a "." or ".." path segment, which it may not';
  if (url.pathname === '/') return 'has no path: the document must be at a path, such as /oauth/client.json';
  if (url.href !== clientId) return `is not written in normal form; write it exactly as ${JSON.stringify(url.href)}`;
  return null;
}

/** An address of `hostname` that may be fetched from; refused unless every address it has is public. */
async function vettedAddress(hostname: string, resolve: Resolve): Promise<string> {
  const host = unbracketed(hostname);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolve(host)).map((a) => a.address);
  } catch (error) {
    throw new Error(
      `cannot be fetched: ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (addresses.length === 0) throw new Error(`cannot be fetched: ${host} has no address`);
  const closed = addresses.filter((address) => !isPublicAddress(address));
  if (closed.length) {
    const which = closed.length === 1 ? 'is not a public address' : 'are not public addresses';
    const named = isIP(host) ? closed[0] : `${host} resolves to ${closed.join(', ')}, which`;
    throw new Error(`cannot be fetched: ${named} ${which}; documents are fetched only from public addresses`);
  }
  return addresses[0];
}

interface Download {
  body: string;
  cacheControl: string | undefined;
}

interface Transfer {
  dial: NonNullable<ClientMetadataFetcherOptions['dial']>;
  maxBytes: number;
  ca: string | Buffer | undefined;
}

function isJsonType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0].trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** GET `url` from `address` over TLS checked against the URL's host name; anything but a 200 JSON answer is refused. */
function download(url: URL, address: string, transfer: Transfer, signal: AbortSignal): Promise<Download> {
  const hostname = unbracketed(url.hostname);
  const target = transfer.dial(address, Number(url.port || 443));
  const tooLarge = `is larger than ${transfer.maxBytes} bytes, the most this server reads`;
  return new Promise((resolve, reject) => {
    const request = https.request({
      host: target.host,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, accept: 'application/json' },
      // No SNI for a literal IP host (RFC 6066 allows only names); either way the certificate is
      // checked against the URL's host, whichever address the socket went to.
      servername: isIP(hostname) ? '' : hostname,
      checkServerIdentity: (_host, cert) => checkServerIdentity(hostname, cert),
      ca: transfer.ca,
      agent: false,
      signal,
    });
    const fail = (problem: string) => {
      request.destroy();
      reject(new Error(problem));
    };
    const broken = (error: Error) => reject(new Error(`could not be fetched: ${error.message}`));
    request.on('error', broken);
    request.on('response', (response) => {
      response.on('error', broken);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        const location = response.headers.location?.slice(0, 200);
        return fail(
          `answered ${status}, a redirect${location ? ` to ${location}` : ''}; the document must be served directly at the client_id URL`,
        );
      }
      if (status !== 200) return fail(`answered HTTP ${status}; it must answer 200 with the document`);
      const type = response.headers['content-type'];
      if (!isJsonType(type))
        return fail(`is served as ${type?.slice(0, 100) ?? 'no content type'}; it must be application/json`);
      if (Number(response.headers['content-length']) > transfer.maxBytes) return fail(tooLarge);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > transfer.maxBytes) return fail(tooLarge);
        chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({ body: Buffer.concat(chunks).toString('utf8'), cacheControl: response.headers['cache-control'] }),
      );
    });
    request.end();
  });
}

/** Runs `work` with a deadline; past it, `work`'s signal aborts and the error says so. */
async function withDeadline<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`did not arrive within ${timeoutMs} ms`));
      controller.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long to keep a document: its max-age (no-store and no-cache count as 0), within the bounds. */
function cacheLifetimeMs(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase();
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/.exec(directives);
  const noCache = /(?:^|,)\s*no-(?:store|cache)\s*(?:,|$)/.test(directives);
  const wanted = noCache ? 0 : maxAge ? Number(maxAge[1]) * 1000 : DEFAULT_CACHE_MS;
  return Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, wanted));
}

function parseObject(body: string): Record<string, unknown> {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new Error(`is not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new Error('is not a JSON object');
  return document as Record<string, unknown>;
}

/** What the draft and this server ask of a document beyond the types of its fields. */
function documentRuleProblems(document: Record<string, unknown>, url: string): string[] {
  const problems: string[] = [];
  if (document.client_id !== url) {
    const given = JSON.stringify(document.client_id)?.slice(0, 200) ?? 'missing';
    problems.push(`its client_id is ${given}, but must be exactly the URL it is served at, ${JSON.stringify(url)}`);
  }
  if (typeof document.client_name !== 'string' || document.client_name.trim() === '')
    problems.push('client_name is required: the name shown to the user who approves the client');
  if (document.redirect_uris === undefined) problems.push('redirect_uris is required');
  if (document.client_secret !== undefined || document.client_secret_expires_at !== undefined)
    problems.push('it carries a client_secret, which a published document must never hold');
  const method = document.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    problems.push(
      `token_endpoint_auth_method is ${JSON.stringify(method)}, but this server takes metadata documents only from public clients: use none, or leave it out`,
    );
  }
  return problems;
}

/** The client a valid document describes, as the SDK's handlers read a registered one. */
function clientFromDocument(body: string, url: string): OAuthClientInformationFull {
  const document = parseObject(body);
  const parsed = OAuthClientMetadataSchema.safeParse(document);
  const problems = documentRuleProblems(document, url);
  if (parsed.success) {
    problems.push(
      ...registrationProblems({ ...parsed.data, client_id: url, token_endpoint_auth_method: 'none' }, 'dynamic'),
    );
  } else {
    // A missing field is reported above, in plainer words.
    for (const issue of parsed.error.issues)
      if (document[String(issue.path[0])] !== undefined) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  if (problems.length || !parsed.success) throw new Error(`is not usable: ${problems.join('; ')}`);
  const client = parsed.data;
  return {
    client_id: url,
    client_name: client.client_name!.trim(),
    redirect_uris: client.redirect_uris,
    ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
    ...(client.client_uri ? { client_uri: client.client_uri } : {}),
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

export function createClientMetadataFetcher(options: ClientMetadataFetcherOptions = {}): ClientMetadataFetcher {
  const resolve = options.resolve ?? ((hostname: string) => lookup(hostname, { all: true }));
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const transfer: Transfer = {
    dial: options.dial ?? ((address, port) => ({ host: address, port })),
    maxBytes: options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
    ca: options.ca,
  };
  const cache = new Map<string, CacheEntry>();

  async function load(url: string): Promise<Loaded> {
    try {
      const { body, cacheControl } = await withDeadline(timeoutMs, async (signal) => {
        const parsed = new URL(url);
        return download(parsed, await vettedAddress(parsed.hostname, resolve), transfer, signal);
      });
      return { client: clientFromDocument(body, url), lifetimeMs: cacheLifetimeMs(cacheControl) };
    } catch (error) {
      throw new InvalidClientError(`The client ID metadata document at ${url} ${(error as Error).message}.`);
    }
  }

  /** The cached or in-flight entry for `url`, or a new fetch; the least recently used entry goes first. */
  function entryFor(url: string): CacheEntry {
    const cached = cache.get(url);
    cache.delete(url);
    if (cached && cached.expiresAt > now()) {
      cache.set(url, cached);
      return cached;
    }
    const loading = load(url);
    const entry: CacheEntry = { client: loading.then(({ client }) => client), expiresAt: Number.POSITIVE_INFINITY };
    loading.then(
      ({ lifetimeMs }) => {
        entry.expiresAt = now() + lifetimeMs;
      },
      () => {
        entry.expiresAt = now() + FAILURE_CACHE_MS;
      },
    );
    if (cache.size >= MAX_CACHED_DOCUMENTS) cache.delete(cache.keys().next().value!);
    cache.set(url, entry);
    return entry;
  }

  return {
    async getClient(url) {
      const problem = clientIdUrlProblem(url);
      if (problem) throw new InvalidClientError(`The client_id ${JSON.stringify(url.slice(0, 200))} ${problem}.`);
      return entryFor(url).client;
    },
  };
}
