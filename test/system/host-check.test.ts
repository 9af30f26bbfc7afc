/**
 * DNS-rebinding protection on /mcp: a request addressed to a Host this server is not published under
 * gets 403 host_not_allowed, naming ALLOWED_HOSTS, before anything else is looked at. With no setting, the loopback names answer on any
 * port, so local development needs nothing. ALLOWED_HOSTS and PUBLIC_URL add hosts (with or without a
 * port); loopback names stay allowed (no rebinding page can send one). X-Forwarded-Host counts only
 * behind a trusted proxy (TRUST_PROXY=1). Plus the setting's validation at start.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, test } from 'node:test';
import { loadConfig } from '../../lib/config.ts';
import { MCP_HEADERS, rpc } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { webRequest } from '../support/web-client.ts';

/** A tools/list (public, no key needed) addressed to `host`. */
async function listTools(server: TestServer, host: string, headers: Record<string, string> = {}) {
  const answer = await webRequest(server.mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, host, ...headers },
    body: JSON.stringify(rpc('tools/list')),
  });
  return { status: answer.status, body: answer.text };
}

function assertRefused(answer: { status: number; body: string }, what: string): void {
  assert.equal(answer.status, 403, `${what}: ${answer.body.slice(0, 300)}`);
  const body = JSON.parse(answer.body);
  assert.equal(body.error, 'host_not_allowed', what);
  assert.match(body.message, /ALLOWED_HOSTS/, `${what}: the message names the setting`);
}

function assertAnswered(answer: { status: number; body: string }, what: string): void {
  assert.equal(answer.status, 200, `${what}: ${answer.body.slice(0, 300)}`);
  assert.match(answer.body, /"tools":\[/, what);
}

describe('with no setting', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('a foreign Host is refused, on POST and on the CORS preflight', async () => {
    const port = new URL(server.baseUrl).port;
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
    ]) {
      assertRefused(await listTools(server, host), host);
    }
    const preflight = await webRequest(server.mcpUrl, {
      method: 'OPTIONS',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    assertRefused({ status: preflight.status, body: preflight.text }, 'preflight');
    assert.equal(preflight.headers['access-control-allow-origin'], undefined, 'no CORS grant for the rebinding page');
    // Refused before the handler runs (its body is over the cap): still no grant for that page.
    const oversized = await webRequest(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, host: 'evil.example', origin: 'http://evil.example' },
      body: JSON.stringify({ ...rpc('tools/list'), pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(oversized.status, 413);
    assert.equal(oversized.headers['access-control-allow-origin'], undefined, 'no CORS grant on the early 413');
  });

  it('the loopback names answer on any port', async () => {
    const port = new URL(server.baseUrl).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', 'LOCALHOST:1']) {
      assertAnswered(await listTools(server, host), host);
    }
  });

  it('X-Forwarded-Host is ignored without TRUST_PROXY, whichever way it points', async () => {
    assertRefused(
      await listTools(server, 'evil.example', { 'x-forwarded-host': 'localhost' }),
      'foreign Host, loopback X-Forwarded-Host',
    );
    assertAnswered(
      await listTools(server, 'localhost', { 'x-forwarded-host': 'evil.example' }),
      'loopback Host, foreign X-Forwarded-Host',
    );
  });
});

describe('with ALLOWED_HOSTS and PUBLIC_URL, behind a trusted proxy', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      ALLOWED_HOSTS: ' api.example.com , mcp.example.net:8443',
      PUBLIC_URL: 'https://portal.example.org',
      TRUST_PROXY: '1',
    });
  });
  after(() => server?.stop());

  it('the listed hosts answer, a port only where listed with none; others are refused', async () => {
    for (const host of [
      'api.example.com',
      'API.example.com:443',
      'mcp.example.net:8443',
      'portal.example.org',
      'portal.example.org:444',
    ]) {
      assertAnswered(await listTools(server, host), host);
    }
    for (const host of [
      'mcp.example.net',
      'mcp.example.net:8444',
      'example.com',
      'evil.example',
      'api.example.com.evil.example',
    ]) {
      assertRefused(await listTools(server, host), host);
    }
  });

  it('loopback names stay allowed: no rebinding page can send one, and probes on the machine keep working', async () => {
    assertAnswered(await listTools(server, `localhost:${new URL(server.baseUrl).port}`), 'localhost');
  });

  it("the proxy's X-Forwarded-Host is the host that counts", async () => {
    assertAnswered(
      await listTools(server, 'app1:3000', { 'x-forwarded-host': 'api.example.com' }),
      'forwarded for an allowed host',
    );
    assertRefused(
      await listTools(server, 'localhost', { 'x-forwarded-host': 'evil.example' }),
      'forwarded for a foreign host',
    );
  });
});

describe('ALLOWED_HOSTS and PUBLIC_URL are checked at start', () => {
  const saved = { ALLOWED_HOSTS: process.env.ALLOWED_HOSTS, PUBLIC_URL: process.env.PUBLIC_URL };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const withEnv = (env: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    return loadConfig();
  };

  test('unset: the loopback names only', () => {
    assert.deepEqual([...withEnv({ ALLOWED_HOSTS: undefined, PUBLIC_URL: undefined }).allowedHosts].sort(), [
      '127.0.0.1',
      '[::1]',
      'localhost',
    ]);
  });

  test('entries are trimmed and lower-cased; PUBLIC_URL adds its host with its port', () => {
    const hosts = withEnv({
      ALLOWED_HOSTS: 'API.Example.com, 10.0.0.5:3000,[fd00::1]',
      PUBLIC_URL: 'https://portal.example.org:8443/base',
    }).allowedHosts;
    for (const host of ['api.example.com', '10.0.0.5:3000', '[fd00::1]', 'portal.example.org:8443'])
      assert.ok(hosts.has(host), host);
  });

  test('a URL, a path, a space or a bad port is refused with a message naming the setting', () => {
    for (const bad of [
      'https://api.example.com',
      'api.example.com/mcp',
      'api example.com',
      'api.example.com:port',
      '*.example.com',
    ]) {
      assert.throws(
        () => withEnv({ ALLOWED_HOSTS: bad, PUBLIC_URL: undefined }),
        /ALLOWED_HOSTS must be comma-separated host names or host:port/,
        bad,
      );
    }
    assert.throws(
      () => withEnv({ ALLOWED_HOSTS: undefined, PUBLIC_URL: 'portal.example.org' }),
      /PUBLIC_URL must be an absolute URL/,
    );
  });
});
