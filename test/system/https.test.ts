/**
 * Spec §5.7 (HTTPS only): plain HTTP is refused from anywhere but loopback; X-Forwarded-* count only
 * with TRUST_PROXY=1; server.ts serves TLS itself from TLS_CERT_FILE/TLS_KEY_FILE and sends HSTS.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { isLoopback, plainHttpRefusal } from '../../lib/http/transport-security.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { selfSignedCertificate, type TestCertificate } from '../support/tls.ts';

describe('the plain-HTTP rule', () => {
  it('knows loopback addresses in every form a socket reports them', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      assert.equal(isLoopback(address), true, address);
    for (const address of ['10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', '2001:db8::1', ''])
      assert.equal(isLoopback(address), false, address);
  });

  it('refuses plain HTTP from elsewhere unless REQUIRE_HTTPS=0', () => {
    assert.match(
      plainHttpRefusal({ secure: false, clientAddress: '203.0.113.9' }, { requireHttps: true })!,
      /HTTPS only/,
    );
    assert.equal(plainHttpRefusal({ secure: true, clientAddress: '203.0.113.9' }, { requireHttps: true }), null);
    assert.equal(plainHttpRefusal({ secure: false, clientAddress: '127.0.0.1' }, { requireHttps: true }), null);
    assert.equal(plainHttpRefusal({ secure: false, clientAddress: '203.0.113.9' }, { requireHttps: false }), null);
  });
});

describe('behind a proxy (TRUST_PROXY=1)', () => {
  let server: TestServer;
  before(async () => (server = await startTestServer({ TRUST_PROXY: '1' })));
  after(async () => server?.stop());

  it('refuses a request the proxy received over plain HTTP from a remote client', async () => {
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(response.status, 403);
    assert.deepEqual(Object.keys(await response.json()).sort(), ['error', 'message']);
  });

  it('serves a request the proxy received over HTTPS, with HSTS', async () => {
    const response = await fetch(`${server.baseUrl}/`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('strict-transport-security')!, /max-age=\d+/);
  });
});

describe('without TRUST_PROXY, forwarded headers are ignored', () => {
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(async () => server?.stop());

  it('judges by the socket: a loopback client over plain HTTP is served and gets no HSTS', async () => {
    const response = await fetch(`${server.baseUrl}/`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('strict-transport-security'), null);
  });
});

describe('TLS served by server.ts', () => {
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

  it('answers initialize over HTTPS with an HSTS header', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const answer = await new Promise<{ status: number; hsts: string | undefined; text: string }>((done, fail) => {
      const req = request(
        server.mcpUrl,
        {
          method: 'POST',
          ca: certificate.cert,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () =>
            done({
              status: res.statusCode!,
              hsts: res.headers['strict-transport-security'] as string | undefined,
              text,
            }),
          );
        },
      );
      req.on('error', fail);
      req.end(body);
    });
    assert.equal(answer.status, 200);
    assert.match(answer.hsts!, /max-age=31536000/);
    assert.match(answer.text, /"service_mcp"/);
  });
});
