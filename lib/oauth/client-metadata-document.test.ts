import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, type TestContext, test } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { testCertificateAuthority } from '../../test/support/tls.ts';
import {
  type ClientMetadataFetcherOptions,
  createClientMetadataFetcher,
  DEFAULT_CACHE_MS,
  FAILURE_CACHE_MS,
  isClientMetadataUrl,
  MAX_CACHE_MS,
  MIN_CACHE_MS,
  type ResolvedAddress,
} from './client-metadata-document.ts';

const HOST = 'client.example';
const CLIENT_ID = `https://${HOST}/oauth/client.json`;
/** A public address the guard lets through; the test's dial sends its connections to the local server. */
const PUBLIC_ADDRESS = '93.184.215.14';

const authority = testCertificateAuthority();
after(() => authority.remove());
const certificate = authority.issue(HOST);

const documentFor = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: 'Example Agent',
  client_uri: 'https://agent.example',
  logo_uri: 'https://agent.example/logo.png',
  redirect_uris: ['https://agent.example/oauth/callback', 'http://127.0.0.1:33418/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...extra,
});

function sendJson(response: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Setup {
  getClient: (url?: string) => ReturnType<ReturnType<typeof createClientMetadataFetcher>['getClient']>;
  /** Requests the document server received. */
  requests: IncomingMessage[];
  /** Host names the fetcher resolved and addresses it connected to. */
  resolved: string[];
  dialed: string[];
}

/**
 * A local HTTPS server presenting a certificate for client.example from the test authority, and a
 * fetcher that trusts that authority, resolves names with `addresses` and dials every vetted address
 * to the local server.
 */
async function setup(
  t: TestContext,
  handle: Handler,
  {
    addresses = [PUBLIC_ADDRESS],
    served = certificate,
    ...options
  }: ClientMetadataFetcherOptions & { addresses?: string[]; served?: { cert: Buffer; key: Buffer } } = {},
): Promise<Setup> {
  const requests: IncomingMessage[] = [];
  const server = https.createServer(served, (request, response) => {
    requests.push(request);
    handle(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const resolved: string[] = [];
  const dialed: string[] = [];
  const fetcher = createClientMetadataFetcher({
    ca: authority.ca,
    resolve: async (hostname): Promise<ResolvedAddress[]> => {
      resolved.push(hostname);
      return addresses.map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }));
    },
    dial: (address, urlPort) => {
      dialed.push(`${address} ${urlPort}`);
      return { host: '127.0.0.1', port };
    },
    ...options,
  });
  return { getClient: (url = CLIENT_ID) => fetcher.getClient(url), requests, resolved, dialed };
}

/** Asserts the promise fails with the SDK's invalid_client error whose message matches every pattern. */
async function refused(promise: Promise<unknown>, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(promise, (error: Error & { errorCode?: string }) => {
    assert.equal(error.errorCode, 'invalid_client');
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

const serveDocument: Handler = (request, response) =>
  sendJson(response, documentFor(`https://${request.headers.host}${request.url}`));

test('an https client_id names a metadata document; anything else is a client registered here', () => {
  assert.equal(isClientMetadataUrl(CLIENT_ID), true);
  assert.equal(isClientMetadataUrl('https://client.example'), true, 'then refused by getClient, saying why');
  assert.equal(isClientMetadataUrl('http://client.example/oauth/client.json'), false);
  assert.equal(isClientMetadataUrl('4f0c3a52-8d7e-4bb8-9a51-0d6f3b7c2e19'), false);
  assert.equal(isClientMetadataUrl('https//client.example/x'), false);
});

test('a valid document is the client: fetched from the vetted address with the URL’s host name, and mapped', async (t) => {
  const { getClient, requests, resolved, dialed } = await setup(t, serveDocument);
  const client = await getClient();
  assert.deepEqual(client, {
    client_id: CLIENT_ID,
    client_name: 'Example Agent',
    redirect_uris: ['https://agent.example/oauth/callback', 'http://127.0.0.1:33418/callback'],
    logo_uri: 'https://agent.example/logo.png',
    client_uri: 'https://agent.example',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  assert.deepEqual(resolved, [HOST], 'the name is resolved once');
  assert.deepEqual(dialed, [`${PUBLIC_ADDRESS} 443`]);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].method, 'GET');
  assert.equal(requests[0].url, '/oauth/client.json');
  assert.equal(requests[0].headers.host, HOST);
  assert.equal((requests[0].socket as TLSSocket).servername, HOST, 'SNI names the host');
});

test('a document served as a +json type, with a query in its URL and no optional fields, is accepted', async (t) => {
  const url = `${CLIENT_ID}?v=2`;
  const { getClient, requests } = await setup(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/client-metadata+json; charset=utf-8' });
    response.end(
      JSON.stringify({ client_id: url, client_name: '  Tidy  ', redirect_uris: ['https://agent.example/cb'] }),
    );
  });
  const client = await getClient(url);
  assert.equal(client.client_name, 'Tidy');
  assert.deepEqual(client.redirect_uris, ['https://agent.example/cb']);
  assert.equal(client.logo_uri, undefined);
  assert.equal(requests[0].url, '/oauth/client.json?v=2');
});

test('a document is cached for its max-age, within bounds, and fetched again after', async (t) => {
  let clock = Date.UTC(2026, 10, 1);
  const maxAges: Record<string, string | undefined> = {
    '/ten-minutes': 'public, max-age=600',
    '/one-minute': 'max-age=60',
    '/one-week': 'max-age=604800',
    '/none': undefined,
    '/no-store': 'no-store',
  };
  const { getClient, requests } = await setup(
    t,
    (request, response) => {
      const cacheControl = maxAges[request.url ?? ''];
      sendJson(
        response,
        documentFor(`https://${HOST}${request.url}`),
        cacheControl ? { 'cache-control': cacheControl } : {},
      );
    },
    { now: () => clock },
  );
  const fetches = (path: string) => requests.filter((r) => r.url === path).length;
  const expected: Record<string, number> = {
    '/ten-minutes': 600_000,
    '/one-minute': MIN_CACHE_MS,
    '/one-week': MAX_CACHE_MS,
    '/none': DEFAULT_CACHE_MS,
    '/no-store': MIN_CACHE_MS,
  };
  for (const [path, lifetime] of Object.entries(expected)) {
    const start = clock;
    await getClient(`https://${HOST}${path}`);
    clock = start + lifetime - 1;
    await getClient(`https://${HOST}${path}`);
    assert.equal(fetches(path), 1, `${path} is served from the cache within ${lifetime} ms`);
    clock = start + lifetime;
    await getClient(`https://${HOST}${path}`);
    assert.equal(fetches(path), 2, `${path} is fetched again after ${lifetime} ms`);
  }
});

test('concurrent requests for one URL share a single fetch', async (t) => {
  const { getClient, requests } = await setup(t, (request, response) => {
    setTimeout(() => serveDocument(request, response), 100);
  });
  const clients = await Promise.all(Array.from({ length: 5 }, () => getClient()));
  assert.equal(requests.length, 1);
  for (const client of clients) assert.equal(client.client_name, 'Example Agent');
});

test('a failure is remembered briefly, so retries do not each fetch, then the URL is tried again', async (t) => {
  let clock = Date.UTC(2026, 10, 1);
  let broken = true;
  const { getClient, requests } = await setup(
    t,
    (request, response) =>
      broken
        ? sendJson(response, { client_id: CLIENT_ID, redirect_uris: ['https://agent.example/cb'] })
        : serveDocument(request, response),
    { now: () => clock },
  );
  await refused(getClient(), /client_name is required/);
  clock += FAILURE_CACHE_MS - 1;
  await refused(getClient(), /client_name is required/);
  assert.equal(requests.length, 1);
  broken = false;
  clock += 1;
  assert.equal((await getClient()).client_name, 'Example Agent');
  assert.equal(requests.length, 2);
});

test('a client_id that breaks the URL rules is refused without any lookup or fetch', async (t) => {
  const { getClient, requests, resolved } = await setup(t, serveDocument);
  const cases: [string, RegExp][] = [
    [
      'http://client.example/oauth/client.json',
      /is not an https URL; a client ID metadata document is fetched only over https/,
    ],
    ['https://client.example/oauth/client.json#main', /has a fragment/],
    ['https://client.example/oauth/client.json#', /has a fragment/],
    ['https://agent:secret@client.example/oauth/client.json', /carries a user name or password/],
    ['https://client.example', /has no path/],
    ['https://client.example/', /has no path/],
    ['https://client.example/oauth/../client.json', /has a "\." or "\.\." path segment/],
    ['https://client.example/./client.json', /has a "\." or "\.\." path segment/],
    ['https://client.example/oauth/%2E%2e/client.json', /has a "\." or "\.\." path segment/],
    [
      'https://Client.Example/oauth/client.json',
      /not written in normal form; write it exactly as "https:\/\/client\.example\/oauth\/client\.json"/,
    ],
    [
      'https://client.example:443/oauth/client.json',
      /write it exactly as "https:\/\/client\.example\/oauth\/client\.json"\.$/,
    ],
    [`https://client.example/${'a'.repeat(2_000)}`, /is longer than 2000 characters/],
    ['not a url', /is not an absolute URL/],
  ];
  for (const [clientId, pattern] of cases) {
    await refused(getClient(clientId), /^The client_id "/, pattern);
  }
  assert.deepEqual(resolved, []);
  assert.equal(requests.length, 0);
});

test('a document whose client_id is not exactly its URL is refused', async (t) => {
  const { getClient } = await setup(t, (_request, response) =>
    sendJson(response, documentFor('https://client.example/oauth/other.json')),
  );
  await refused(
    getClient(),
    /^The client ID metadata document at https:\/\/client\.example\/oauth\/client\.json is not usable: /,
    /its client_id is "https:\/\/client\.example\/oauth\/other\.json", but must be exactly the URL it is served at, "https:\/\/client\.example\/oauth\/client\.json"/,
  );
});

test('a document larger than the cap is refused and its download cut off', async (t) => {
  let closed: Promise<unknown> | undefined;
  const { getClient } = await setup(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(`{"client_id": "${CLIENT_ID}", "padding": "`);
    const drip = setInterval(() => response.write('x'.repeat(1024)), 5);
    closed = once(response, 'close').then(() => clearInterval(drip));
  });
  await refused(getClient(), /is larger than 5120 bytes, the most this server reads/);
  await closed;
});

test('a document declared larger than the cap is refused before any more of it is read', async (t) => {
  const { getClient } = await setup(t, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '6000' });
    response.write('{"client_id": ');
  });
  await refused(getClient(), /is larger than 5120 bytes, the most this server reads/);
});

/** Whether `promise` settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(resolve, ms, false))]);

test('a server too slow to answer, or to finish the document, is given up on at the deadline and disconnected', async (t) => {
  let closed: Promise<unknown> | undefined;
  const silent = await setup(
    t,
    (request) => {
      closed = once(request.socket, 'close');
    },
    { timeoutMs: 300 },
  );
  let started = Date.now();
  await refused(
    silent.getClient(),
    /at https:\/\/client\.example\/oauth\/client\.json did not arrive within 300 ms\.$/,
  );
  assert.ok(Date.now() - started < 2_000);
  assert.equal(await settlesWithin(closed!, 1_000), true, 'the connection is closed at the deadline');

  const trickling = await setup(
    t,
    (request, response) => {
      closed = once(request.socket, 'close');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"client_id": ');
    },
    { timeoutMs: 300 },
  );
  started = Date.now();
  await refused(trickling.getClient(), /did not arrive within 300 ms/);
  assert.ok(Date.now() - started < 2_000);
  assert.equal(await settlesWithin(closed!, 1_000), true, 'the connection is closed at the deadline');
});

test('a redirect is not followed: the document must be served at its URL', async (t) => {
  const { getClient, requests } = await setup(t, (request, response) => {
    if (request.url !== '/oauth/client.json') return serveDocument(request, response);
    response.writeHead(302, { location: 'https://client.example/moved.json' });
    response.end();
  });
  await refused(
    getClient(),
    /answered 302, a redirect to https:\/\/client\.example\/moved\.json; the document must be served directly at the client_id URL/,
  );
  assert.deepEqual(
    requests.map((r) => r.url),
    ['/oauth/client.json'],
  );
});

test('an error status, a non-JSON type or a body that is not a JSON object is refused', async (t) => {
  const { getClient } = await setup(t, (request, response) => {
    if (request.url === '/missing.json') {
      response.writeHead(404, { 'content-type': 'application/json' });
      return response.end('{}');
    }
    if (request.url === '/page.json') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end(JSON.stringify(documentFor(`https://${HOST}/page.json`)));
    }
    if (request.url === '/untyped.json') {
      response.writeHead(200);
      return response.end(JSON.stringify(documentFor(`https://${HOST}/untyped.json`)));
    }
    if (request.url === '/broken.json') return sendJson(response, '{"client_id": ');
    sendJson(response, [documentFor(`https://${HOST}${request.url}`)]);
  });
  await refused(getClient(`https://${HOST}/missing.json`), /answered HTTP 404; it must answer 200 with the document/);
  await refused(getClient(`https://${HOST}/page.json`), /is served as text\/html; it must be application\/json/);
  await refused(
    getClient(`https://${HOST}/untyped.json`),
    /is served as no content type; it must be application\/json/,
  );
  await refused(getClient(`https://${HOST}/broken.json`), /is not valid JSON \(/);
  await refused(getClient(`https://${HOST}/list.json`), /is not a JSON object/);
});

test('a document with a secret, or asking for a confidential client, is refused', async (t) => {
  const { getClient } = await setup(t, (request, response) => {
    const url = `https://${HOST}${request.url}`;
    sendJson(
      response,
      request.url === '/secret.json'
        ? documentFor(url, { client_secret: 'a'.repeat(40) })
        : documentFor(url, { token_endpoint_auth_method: 'client_secret_basic' }),
    );
  });
  await refused(
    getClient(`https://${HOST}/secret.json`),
    /it carries a client_secret, which a published document must never hold/,
  );
  await refused(
    getClient(`https://${HOST}/confidential.json`),
    /token_endpoint_auth_method is "client_secret_basic", but this server takes metadata documents only from public clients: use none, or leave it out/,
  );
});

test('a document with unsafe redirect URIs, missing fields or mistyped ones is refused with every problem', async (t) => {
  const { getClient } = await setup(t, (request, response) => {
    const url = `https://${HOST}${request.url}`;
    if (request.url === '/redirects.json')
      return sendJson(response, documentFor(url, { redirect_uris: ['http://evil.example/cb', 'myapp://cb'] }));
    if (request.url === '/empty.json') return sendJson(response, { client_id: url });
    sendJson(response, documentFor(url, { client_name: 7 }));
  });
  await refused(
    getClient(`https://${HOST}/redirects.json`),
    /redirect URI "http:\/\/evil\.example\/cb" uses http to a host other than this machine/,
    /redirect URI "myapp:\/\/cb" uses the custom scheme myapp:/,
  );
  await refused(getClient(`https://${HOST}/empty.json`), /client_name is required/, /redirect_uris is required/);
  await refused(getClient(`https://${HOST}/typed.json`), /client_name is required/, /client_name: /);
  const { getClient: grants } = await setup(t, (request, response) =>
    sendJson(response, documentFor(`https://${HOST}${request.url}`, { grant_types: ['client_credentials'] })),
  );
  await refused(grants(), /grant_types may be authorization_code and refresh_token, not client_credentials/);
});

test('a host with any non-public address is refused, and nothing is connected to', async (t) => {
  const cases: [string[], string][] = [
    [['10.0.0.1'], '10.0.0.1'],
    [['172.16.5.4'], '172.16.5.4'],
    [['192.168.1.1'], '192.168.1.1'],
    [['127.0.0.1'], '127.0.0.1'],
    [['::1'], '::1'],
    [['::ffff:127.0.0.1'], '::ffff:127.0.0.1'],
    [['::ffff:10.0.0.1'], '::ffff:10.0.0.1'],
    [['::127.0.0.1'], '::127.0.0.1'],
    [['::7f00:1'], '::7f00:1'],
    [['::ffff:8.8.8.8'], '::ffff:8.8.8.8'],
    [['169.254.169.254'], '169.254.169.254'],
    [['fe80::1'], 'fe80::1'],
    [['fd00::1'], 'fd00::1'],
    [['100.64.0.1'], '100.64.0.1'],
    [['0.0.0.0'], '0.0.0.0'],
    [['::'], '::'],
    [['0.1.2.3'], '0.1.2.3'],
    [['224.0.0.1'], '224.0.0.1'],
    [['ff02::1'], 'ff02::1'],
    [['255.255.255.255'], '255.255.255.255'],
    [['240.0.0.1'], '240.0.0.1'],
    [['192.0.2.1'], '192.0.2.1'],
    [['2001:db8::1'], '2001:db8::1'],
    [['64:ff9b::a00:1'], '64:ff9b::a00:1'],
    [[PUBLIC_ADDRESS, '10.0.0.1'], '10.0.0.1'],
    [['2606:4700:4700::1111', 'fd00::1'], 'fd00::1'],
  ];
  for (const [addresses, named] of cases) {
    const { getClient, requests, dialed } = await setup(t, serveDocument, { addresses });
    await refused(
      getClient(),
      new RegExp(
        `cannot be fetched: client\\.example resolves to ${named.replace(/\./g, '\\.')}, which is not a public address`,
      ),
    );
    assert.deepEqual(dialed, [], `${addresses.join(', ')} is not connected to`);
    assert.equal(requests.length, 0);
  }
  const several = await setup(t, serveDocument, { addresses: ['10.0.0.1', PUBLIC_ADDRESS, '127.0.0.1'] });
  await refused(
    several.getClient(),
    /client\.example resolves to 10\.0\.0\.1, 127\.0\.0\.1, which are not public addresses; documents are fetched only from public addresses\.$/,
  );
  const v6 = await setup(t, serveDocument, { addresses: ['2606:4700:4700::1111'] });
  assert.equal((await v6.getClient()).client_id, CLIENT_ID, 'a public IPv6 address is fetched from');
  assert.deepEqual(v6.dialed, ['2606:4700:4700::1111 443']);
});

test('the name is resolved once per fetch, so a second answer cannot point the connection elsewhere', async (t) => {
  const answers = [[PUBLIC_ADDRESS], ['127.0.0.1']];
  const { getClient, dialed } = await setup(t, serveDocument, {
    resolve: async () => answers.shift()!.map((address) => ({ address, family: 4 })),
  });
  await getClient();
  assert.deepEqual(dialed, [`${PUBLIC_ADDRESS} 443`]);
  assert.equal(answers.length, 1, 'one lookup');
});

test('a literal IP host is held to the same rule, without a lookup', async (t) => {
  const { getClient, resolved, dialed } = await setup(t, serveDocument);
  for (const [url, address] of [
    ['https://127.0.0.1/oauth/client.json', '127.0.0.1'],
    ['https://[::1]/oauth/client.json', '::1'],
    ['https://10.0.0.1:8443/oauth/client.json', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://[::ffff:a9fe:a9fe]/latest/meta-data', '::ffff:a9fe:a9fe'],
  ]) {
    await refused(
      getClient(url),
      new RegExp(`cannot be fetched: ${address.replace(/\./g, '\\.')} is not a public address;`),
    );
  }
  assert.deepEqual(resolved, []);
  assert.deepEqual(dialed, []);
  // A public literal IP is dialed directly; the certificate must then name that IP, which this one does not.
  await refused(
    getClient(`https://${PUBLIC_ADDRESS}:8443/oauth/client.json`),
    /could not be fetched: .*93\.184\.215\.14/,
  );
  assert.deepEqual(resolved, []);
  assert.deepEqual(dialed, [`${PUBLIC_ADDRESS} 8443`]);
});

test('a host whose name does not resolve is refused, saying so', async (t) => {
  const failing = await setup(t, serveDocument, {
    resolve: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND client.example'), { code: 'ENOTFOUND' });
    },
  });
  await refused(failing.getClient(), /cannot be fetched: client\.example could not be resolved \(ENOTFOUND\)/);
  const empty = await setup(t, serveDocument, { addresses: [] });
  await refused(empty.getClient(), /cannot be fetched: client\.example has no address/);
  assert.deepEqual(empty.dialed, []);
});

test('the server’s certificate must be valid for the URL’s host and chain to a trusted root', async (t) => {
  const otherName = await setup(t, serveDocument, { served: authority.issue('elsewhere.example') });
  await refused(otherName.getClient(), /could not be fetched: .*client\.example/);
  assert.equal(otherName.requests.length, 0);
  const systemRoots = await setup(t, serveDocument, { ca: undefined });
  await refused(systemRoots.getClient(), /could not be fetched: .*(certificate|issuer)/);
  assert.equal(systemRoots.requests.length, 0);
});
