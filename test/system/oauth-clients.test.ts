/**
 * Clients that try OAuth on a 401 must still show our key errors. The discovery documents and the
 * registration endpoint answer JSON saying how to send a key (never Next's HTML 404), the 401 carries the
 * message in WWW-Authenticate, and mcp-remote — which always tries OAuth — shows missing_api_key and
 * invalid_api_key to its user. mcp-remote runs for real, driven over stdio as a desktop client drives it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let server: TestServer;
before(async () => (server = await startTestServer()));
after(async () => server?.stop());

const DISCOVERY = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/openid-configuration',
  '/.well-known/openid-configuration/mcp',
  '/mcp/.well-known/openid-configuration',
];

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'service_query_compound', arguments: { compound_name: 'ethanol' } },
});

describe('OAuth discovery and endpoints', () => {
  it('every discovery document is a short JSON 404 saying the server takes API keys', async () => {
    for (const path of DISCOVERY) {
      const response = await fetch(server.baseUrl + path);
      assert.equal(response.status, 404, path);
      assert.match(response.headers.get('content-type') ?? '', /application\/json/, path);
      const body = (await response.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'oauth_not_supported', path);
      assert.match(body.error_description, /API keys, not OAuth.*Authorization: Bearer cf_/, path);
    }
  });

  it('registration says what was wrong with the key the client sent, then how to send one', async () => {
    const register = (headers: Record<string, string>) =>
      fetch(`${server.baseUrl}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ redirect_uris: ['http://localhost:1/cb'] }),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { error: string; error_description: string },
      }));
    const none = await register({});
    assert.equal(none.status, 400);
    assert.equal(none.body.error, 'invalid_request');
    assert.match(none.body.error_description, /^missing_api_key: .*API keys, not OAuth/);
    const unknown = await register({ authorization: 'Bearer cf_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    assert.match(unknown.body.error_description, /^invalid_api_key: /);
    const valid = await register({ 'x-api-key': server.demoKey });
    assert.match(valid.body.error_description, /^Your API key is valid/);
    for (const path of ['/token', '/authorize']) {
      const r = await fetch(server.baseUrl + path, { method: path === '/token' ? 'POST' : 'GET' });
      assert.equal(r.status, 400, path);
      assert.match(((await r.json()) as { error_description: string }).error_description, /^missing_api_key: /, path);
    }
  });

  it("a 401's WWW-Authenticate carries the message as error_description", async () => {
    const missing = await fetch(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: CALL });
    assert.equal(missing.status, 401);
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer realm="mcp", error_description=".*API key/);
    const unknown = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: 'Bearer cf_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' },
      body: CALL,
    });
    assert.equal(unknown.status, 401);
    const { message } = (await unknown.json()) as { message: string };
    const challenge = unknown.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /error="invalid_token", error_description="/);
    assert.ok(challenge.includes(message.replace(/[^\x20-\x7e]/g, '?').replace(/"/g, '\\"')), challenge);
  });
});

/** Runs mcp-remote as a desktop client would (stdio), initializes, calls a tool, returns the call's error message. */
async function mcpRemoteCallError(headers: string[]): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-remote-'));
  const bin = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js');
  const child = spawn(process.execPath, [bin, server.mcpUrl, '--allow-http', ...headers], {
    env: { ...process.env, HOME: home, BROWSER: 'true' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    const lines: string[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
    });
    const answer = (id: number) =>
      new Promise<{ result?: unknown; error?: { message: string } }>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no answer ${id} from mcp-remote`)), 30_000);
        const poll = setInterval(() => {
          const line = lines.find((l) => (JSON.parse(l) as { id?: number }).id === id);
          if (line) {
            clearTimeout(deadline);
            clearInterval(poll);
            resolve(JSON.parse(line));
          }
        }, 50);
      });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'oauth-clients-test', version: '1' },
      },
    });
    assert.ok((await answer(1)).result, 'initialize answered through mcp-remote');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: JSON.parse(CALL).params });
    const call = await answer(2);
    assert.ok(call.error, `the call failed: ${JSON.stringify(call)}`);
    return call.error.message;
  } finally {
    child.kill();
    rmSync(home, { recursive: true, force: true });
  }
}

describe('mcp-remote (stdio) shows our key errors to its user', () => {
  it('no key: missing_api_key and how to send one', async () => {
    assert.match(await mcpRemoteCallError([]), /missing_api_key: .*API keys, not OAuth/);
  });
  it('an unknown key: invalid_api_key', async () => {
    const message = await mcpRemoteCallError([
      '--header',
      'Authorization: Bearer cf_cccccccccccccccccccccccccccccccccccccc',
    ]);
    assert.match(message, /invalid_api_key: API key not recognised/);
    assert.doesNotMatch(message, /<!DOCTYPE html>/i);
  });
});
