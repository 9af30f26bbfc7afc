/**
 * The authorization server's documents and endpoints over HTTP, as clients and attackers meet them:
 * discovery (root and /mcp forms, the OpenID alias), /mcp's 401 pointing at it, self-registration and
 * its bounds, /authorize's checks before any consent (no open redirect, PKCE S256 only, this server's
 * resource only), and the token endpoint's refusals (unknown or injected codes, client authentication).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const REGISTRATIONS_PER_HOUR = 6;
let server: TestServer;
before(async () => {
  server = await startTestServer({ OAUTH_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR) });
  const pub = await register({
    client_name: 'Desk Agent',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });
  const confidential = await register({ client_name: 'Web Agent', redirect_uris: ['https://agent.example/cb'] });
  clients.public = String(pub.body.client_id);
  clients.confidential = String(confidential.body.client_id);
  clients.secret = String(confidential.body.client_secret);
});
after(async () => server?.stop());

const REDIRECT = 'http://127.0.0.1:43210/callback';
/** Registered first, before the flood test uses up this address's registrations. */
const clients = { public: '', confidential: '', secret: '' };
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

async function register(body: object) {
  const response = await fetch(`${server.baseUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

function authorizeUrl(clientId: string, extra: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 'st-123',
    resource: `${server.baseUrl}/mcp`,
    ...extra,
  };
  const url = new URL(`${server.baseUrl}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

async function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, string>,
  };
}

describe('discovery', () => {
  it('protected-resource metadata, root and /mcp forms, names /mcp and this server as its authorization server', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(server.baseUrl + path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
      const body = (await response.json()) as { resource: string; authorization_servers: string[] };
      assert.equal(body.resource, `${server.baseUrl}/mcp`, path);
      assert.deepEqual(body.authorization_servers, [server.baseUrl], path);
    }
  });

  it('authorization-server metadata at the RFC 8414 and OpenID paths: S256 only, metadata documents, iss', async () => {
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/mcp',
      '/.well-known/openid-configuration',
      '/.well-known/openid-configuration/mcp',
      '/mcp/.well-known/openid-configuration',
    ]) {
      const response = await fetch(server.baseUrl + path);
      assert.equal(response.status, 200, path);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.issuer, server.baseUrl, path);
      assert.equal(body.token_endpoint, `${server.baseUrl}/token`, path);
      assert.deepEqual(body.code_challenge_methods_supported, ['S256'], path);
      assert.equal(body.client_id_metadata_document_supported, true, path);
      assert.equal(body.authorization_response_iss_parameter_supported, true, path);
    }
  });

  it("every /mcp 401 points at the metadata and keeps the spec's JSON body; initialize and tools/list stay open", async () => {
    const missing = await postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'water' }));
    assert.equal(missing.status, 401);
    assert.equal((missing.json as { error: string }).error, 'missing_api_key');
    const expected = `resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`;
    assert.ok(
      missing.headers.get('www-authenticate')?.includes(expected),
      missing.headers.get('www-authenticate') ?? '',
    );
    const unknown = await postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'water' }), {
      authorization: 'Bearer cf_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
    });
    assert.equal((unknown.json as { error: string }).error, 'invalid_api_key');
    assert.match(unknown.headers.get('www-authenticate') ?? '', /resource_metadata="[^"]+", error="invalid_token"/);
    const listed = await postMcp(server.mcpUrl, rpc('tools/list'));
    assert.equal(listed.status, 200);
  });

  it('a Host this server is not published under gets no documents naming it (DNS rebinding, issuer spoofing)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.baseUrl}/.well-known/oauth-authorization-server`,
        { headers: { host: 'attacker.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 403);
  });
});

describe('registration', () => {
  it('registered a public client and a confidential one (its secret shown once, never expiring)', () => {
    assert.ok(clients.public && clients.confidential, 'both registered');
    assert.match(clients.secret, /^[0-9a-f]{64}$/);
  });

  it('refuses redirect URIs that would make this server an open redirect, listing every problem', async () => {
    const refused = await register({
      client_name: 'Bad',
      redirect_uris: ['javascript:alert(1)', 'http://evil.example/cb', 'https://ok.example/cb#frag', 'myapp://cb'],
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'invalid_client_metadata');
    const text = String(refused.body.error_description);
    for (const uri of ['javascript:alert(1)', 'http://evil.example/cb', 'https://ok.example/cb#frag', 'myapp://cb'])
      assert.ok(text.includes(JSON.stringify(uri)), `${uri} is named: ${text}`);
  });

  it('malformed bodies get a JSON 400, never a stack trace', async () => {
    const response = await fetch(`${server.baseUrl}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"client_name": ',
    });
    assert.equal(response.status, 400);
    const text = await response.text();
    assert.doesNotMatch(text, /at .*\.js:\d+/);
    assert.equal((JSON.parse(text) as { error: string }).error, 'invalid_request');
  });

  it('an address may register only so often (429 with Retry-After)', async () => {
    let status = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < REGISTRATIONS_PER_HOUR + 1 && status !== 429; i++) {
      const r = await register({
        client_name: `Flood ${i}`,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      });
      status = r.status;
      retryAfter = r.headers.get('retry-after');
    }
    assert.equal(status, 429);
    assert.ok(Number(retryAfter) > 0);
  });
});

describe('authorize and token refusals', () => {
  const expectRedirectError = async (url: string, error: string) => {
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 302, url);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.equal(location.searchParams.get('error'), error, location.href);
    assert.equal(location.searchParams.get('state'), 'st-123');
    assert.equal(location.searchParams.get('iss'), server.baseUrl, 'RFC 9207: errors carry iss too');
    return location.searchParams.get('error_description') ?? '';
  };

  it('an unregistered redirect_uri or an unknown client is answered here, never redirected to (no open redirect)', async () => {
    for (const url of [
      authorizeUrl(clients.public, { redirect_uri: 'https://evil.example/cb' }),
      authorizeUrl(clients.public, { redirect_uri: 'http://127.0.0.1:43210/other' }),
      authorizeUrl('no-such-client'),
    ]) {
      const response = await fetch(url, { redirect: 'manual' });
      assert.equal(response.status, 400, url);
      assert.equal(response.headers.get('location'), null, url);
      assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    }
  });

  it('PKCE is S256 only: plain or none is refused back to the client', async () => {
    const plain = await expectRedirectError(
      authorizeUrl(clients.public, { code_challenge_method: 'plain' }),
      'invalid_request',
    );
    assert.match(plain, /^PKCE is required: send code_challenge with code_challenge_method=S256/);
    await expectRedirectError(
      authorizeUrl(clients.public, { code_challenge: undefined, code_challenge_method: undefined }),
      'invalid_request',
    );
  });

  it('a token for another resource is refused (RFC 8707); a good request goes to the consent page', async () => {
    const described = await expectRedirectError(
      authorizeUrl(clients.public, { resource: 'https://other.example/mcp' }),
      'invalid_target',
    );
    assert.match(described, /issues tokens for http:\/\/localhost:\d+\/mcp only/);
    const response = await fetch(authorizeUrl(clients.public), { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.match(response.headers.get('location') ?? '', /^\/oauth\/consent\?request=[0-9a-f]+\.[0-9a-f]+$/);
  });

  it('the token endpoint: an injected code is refused; client authentication failures are 401 invalid_client', async () => {
    const injected = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: clients.public,
      code: 'made-up-code',
      code_verifier: 'v'.repeat(43),
      redirect_uri: REDIRECT,
    });
    assert.equal(injected.status, 400);
    assert.equal(injected.body.error, 'invalid_grant');
    const unknown = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: 'no-such-client',
      refresh_token: 'x',
    });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error, 'invalid_client');
    const noSecret = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: clients.confidential,
      refresh_token: 'x',
    });
    assert.equal(noSecret.status, 401);
    const basic = (secret: string) => ({
      authorization: `Basic ${Buffer.from(`${clients.confidential}:${secret}`).toString('base64')}`,
    });
    const wrong = await tokenRequest({ grant_type: 'refresh_token', refresh_token: 'x' }, basic('wrong'));
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Basic /);
    // The right secret passes authentication; the made-up refresh token is then the grant refused.
    const right = await tokenRequest({ grant_type: 'refresh_token', refresh_token: 'x' }, basic(clients.secret));
    assert.equal(right.status, 400);
    assert.equal(right.body.error, 'invalid_grant');
    const posted = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: clients.confidential,
      client_secret: clients.secret,
    });
    assert.equal(posted.body.error, 'invalid_grant');
  });
});
