/**
 * The security headers (lib/http/security-headers.ts) on the real production server, over plain HTTP
 * (loopback), over HTTPS served by server.ts, and behind a TLS-terminating proxy: on portal pages, a
 * redirect to sign-in, a 404, the JSON API routes, Auth.js's routes and /mcp. The page's scripts carry
 * the nonce its CSP allows, fresh on every request, whatever a client sends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { selfSignedCertificate, type TestCertificate } from '../support/tls.ts';
import { type WebAnswer, webRequest } from '../support/web-client.ts';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Everything server.ts hands to Next, with the status each answers signed out. */
const NEXT_ANSWERS: { path: string; status: number }[] = [
  { path: '/', status: 200 },
  { path: '/docs', status: 200 },
  { path: '/signin', status: 200 },
  { path: '/keys', status: 307 }, // to sign-in
  { path: '/support', status: 307 },
  { path: '/no-such-page', status: 404 },
  { path: '/api/health', status: 200 },
  { path: '/api/ping', status: 200 },
  { path: '/api/portal/keys/no-such-key/usage', status: 404 },
  { path: '/api/auth/csrf', status: 200 },
  { path: '/api/keys/report-leak', status: 405 },
];

function directives(policy: string | string[] | undefined): Map<string, string[]> {
  assert.equal(typeof policy, 'string', 'one Content-Security-Policy header');
  return new Map(
    (policy as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

function assertCommonHeaders(answer: WebAnswer, what: string): void {
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(answer.headers['x-frame-options'], 'DENY', what);
  assert.equal(answer.headers['referrer-policy'], 'same-origin', what);
}

/** A document answer's policy: scripts by nonce only, no framing; returns the nonce. */
function assertDocumentPolicy(answer: WebAnswer, what: string, { secure }: { secure: boolean }): string {
  assertCommonHeaders(answer, what);
  const policy = directives(answer.headers['content-security-policy']);
  const scripts = policy.get('script-src') ?? [];
  const nonce = /^'nonce-([A-Za-z0-9+/]+={0,2})'$/.exec(scripts.find((s) => s.startsWith("'nonce-")) ?? '')?.[1];
  assert.ok(nonce, `${what}: script-src has a nonce (${scripts.join(' ')})`);
  assert.ok(scripts.includes("'strict-dynamic'"), what);
  assert.ok(
    !scripts.includes("'unsafe-inline'") && !scripts.includes("'unsafe-eval'"),
    `${what}: no inline or eval scripts`,
  );
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], what);
  assert.deepEqual(policy.get('object-src'), ["'none'"], what);
  assert.deepEqual(policy.get('default-src'), ["'self'"], what);
  assert.equal(policy.has('upgrade-insecure-requests'), secure, `${what}: upgrade-insecure-requests only over HTTPS`);
  return nonce;
}

function assertMcpHeaders(answer: WebAnswer, what: string): void {
  assertCommonHeaders(answer, what);
  const policy = directives(answer.headers['content-security-policy']);
  assert.deepEqual(policy.get('default-src'), ["'none'"], what);
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], what);
}

describe('over plain HTTP on loopback (the quick start)', () => {
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(async () => server?.stop());

  it('every answer through Next carries the document headers, and no HSTS', async () => {
    for (const { path, status } of NEXT_ANSWERS) {
      const answer = await webRequest(server.baseUrl + path);
      assert.equal(answer.status, status, path);
      assertDocumentPolicy(answer, path, { secure: false });
      assert.equal(answer.headers['strict-transport-security'], undefined, path);
    }
  });

  it("a page's scripts all carry the nonce of its own answer, a fresh one each time", async () => {
    const nonces = new Set<string>();
    for (const path of ['/', '/docs', '/signin', '/no-such-page']) {
      const answer = await webRequest(server.baseUrl + path);
      const nonce = assertDocumentPolicy(answer, path, { secure: false });
      const scripts = answer.text.match(/<script\b[^>]*>/g) ?? [];
      assert.ok(scripts.length > 0, `${path} has scripts`);
      for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: ${tag} lacks the nonce`);
      nonces.add(nonce);
    }
    assert.equal(nonces.size, 4, 'no nonce is reused');
  });

  it('a Content-Security-Policy request header from the client does not choose the nonce', async () => {
    const chosen = 'Y2hvc2VuIGJ5IHRoZSBjbGllbnQ=';
    const answer = await webRequest(`${server.baseUrl}/docs`, {
      headers: { 'content-security-policy': `script-src 'nonce-${chosen}'` },
    });
    const nonce = assertDocumentPolicy(answer, '/docs', { secure: false });
    assert.notEqual(nonce, chosen);
    assert.ok(!answer.text.includes(chosen), "the client's nonce is on no script");
  });

  it('/mcp answers (JSON-RPC, a refused method, an error) carry no-sniff, no framing and a CSP that loads nothing', async () => {
    const answers = {
      initialize: await webRequest(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE }),
      'GET /mcp': await webRequest(server.mcpUrl),
      'bad JSON': await webRequest(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: '{' }),
    };
    assert.deepEqual(
      Object.values(answers).map((a) => a.status),
      [200, 405, 400],
    );
    for (const [what, answer] of Object.entries(answers)) assertMcpHeaders(answer, what);
  });
});

describe('over HTTPS served by server.ts', () => {
  let server: TestServer;
  let certificate: TestCertificate;
  before(async () => {
    certificate = selfSignedCertificate();
    server = await startTestServer(certificate.env);
  });
  after(async () => {
    await server?.stop();
    certificate?.remove();
  });

  it('pages, API routes, 404s and /mcp carry the security headers and HSTS', async () => {
    for (const { path, status } of NEXT_ANSWERS) {
      const answer = await webRequest(server.baseUrl + path, { ca: certificate.cert });
      assert.equal(answer.status, status, path);
      assertDocumentPolicy(answer, path, { secure: true });
      assert.match(String(answer.headers['strict-transport-security']), /^max-age=31536000; includeSubDomains$/, path);
    }
    const mcp = await webRequest(server.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: INITIALIZE,
      ca: certificate.cert,
    });
    assert.equal(mcp.status, 200);
    assertMcpHeaders(mcp, '/mcp');
    assert.match(String(mcp.headers['strict-transport-security']), /^max-age=31536000/);
  });
});

describe('behind a TLS-terminating proxy (TRUST_PROXY=1)', () => {
  let server: TestServer;
  before(async () => (server = await startTestServer({ TRUST_PROXY: '1' })));
  after(async () => server?.stop());

  it('a request that came over HTTPS gets HSTS and upgrade-insecure-requests', async () => {
    const answer = await webRequest(`${server.baseUrl}/docs`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(answer.status, 200);
    assertDocumentPolicy(answer, '/docs', { secure: true });
    assert.match(String(answer.headers['strict-transport-security']), /^max-age=/);
  });

  it('the refusal of plain HTTP from afar carries the headers too', async () => {
    const page = await webRequest(`${server.baseUrl}/docs`, {
      headers: { 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(page.status, 403);
    assertCommonHeaders(page, 'refused page');
    const mcp = await webRequest(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' },
      body: INITIALIZE,
    });
    assert.equal(mcp.status, 403);
    assertMcpHeaders(mcp, 'refused /mcp');
  });
});
