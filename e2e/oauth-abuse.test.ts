/**
 * How the OAuth server of /mcp stands up to misuse of what a real consent yields: a signed-in browser
 * clicks Allow, and the codes and tokens it brings back are replayed, injected, sent with the wrong
 * verifier, client, redirect URI or resource, refreshed twice and revoked. The consent page cannot be
 * framed or posted to from another site, the issuer sent back with a code is the one the metadata names
 * (PUBLIC_URL's when it is set, never the Host header's), and none of the codes or tokens reach the
 * server's output.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Page } from '@playwright/test';
import { signUp } from '../test/support/browser.ts';
import { bearer, type McpAnswer, postMcp, rpc, toolCall } from '../test/support/mcp-client.ts';
import {
  allowInBrowser,
  type Callback,
  pkcePair,
  postOAuthForm,
  registerPublicClient,
  startCallback,
} from '../test/support/oauth-client.ts';
import { type ServerAndBrowser, startServerAndBrowser } from '../test/support/server-and-browser.ts';
import { startTestServer } from '../test/support/test-server.ts';

const OTHER_RESOURCE = 'https://other.example/mcp';

let s: ServerAndBrowser;
let page: Page;
let callback: Callback;
/** A redirect URI the client registered but did not use in its authorization requests. */
let elsewhere: string;
const clients = { app: '', other: '' };
/** Every code the browser brought back: none may appear in the server's output. */
const codes: string[] = [];

before(async () => {
  // Debug logging: the log check at the end sees everything the server would ever write.
  s = await startServerAndBrowser({ LOG_LEVEL: 'debug' });
  page = await (await s.browser.newContext()).newPage();
  await signUp(page, s.server.baseUrl, 'abuse-owner@example.test');
  callback = await startCallback();
  elsewhere = callback.url.replace(/\/callback$/, '/elsewhere');
  clients.app = await registerPublicClient(s.server.baseUrl, 'Desk Agent', [callback.url, elsewhere]);
  clients.other = await registerPublicClient(s.server.baseUrl, 'Other Agent', [callback.url]);
});
after(async () => {
  await callback?.close();
  await s?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resource = () => s.server.mcpUrl;

interface Authorization {
  clientId: string;
  redirectUri: string;
  verifier: string;
  challenge: string;
  state: string;
}

function newAuthorization(clientId = clients.app, redirectUri = callback.url): Authorization {
  return { clientId, redirectUri, ...pkcePair(), state: randomBytes(12).toString('base64url') };
}

function authorizeUrl(baseUrl: string, a: Authorization, resourceUrl = `${baseUrl}/mcp`): string {
  const url = new URL(`${baseUrl}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: a.clientId,
    redirect_uri: a.redirectUri,
    code_challenge: a.challenge,
    code_challenge_method: 'S256',
    state: a.state,
    resource: resourceUrl,
  }).toString();
  return url.href;
}

interface Granted extends Authorization {
  code: string;
  iss: string | null;
}

/** The signed-in user allows a new authorization request; the code (and iss) the browser brings back. */
async function consentedCode(clientId = clients.app, to: Callback = callback): Promise<Granted> {
  const a = newAuthorization(clientId, to.url);
  await allowInBrowser(page, authorizeUrl(s.server.baseUrl, a));
  const answer = await to.next();
  // The redirect URI answered; the browser's navigation there ends before the page is used again.
  await page.waitForURL((url) => url.href.startsWith(to.url));
  assert.equal(answer.get('state'), a.state, `the state comes back unchanged: ${answer}`);
  const code = answer.get('code');
  assert.ok(code, `a code came back: ${answer}`);
  codes.push(code);
  return { ...a, code, iss: answer.get('iss') };
}

const token = (form: Record<string, string>) => postOAuthForm(`${s.server.baseUrl}/token`, form);

/** The code exchanged as its authorization request asked, unless `changes` say otherwise. */
function exchange(g: Granted, changes: Record<string, string> = {}) {
  return token({
    grant_type: 'authorization_code',
    code: g.code,
    code_verifier: g.verifier,
    redirect_uri: g.redirectUri,
    client_id: g.clientId,
    resource: resource(),
    ...changes,
  });
}

const refresh = (refreshToken: string, clientId = clients.app) =>
  token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, resource: resource() });

interface Tokens {
  access_token: string;
  refresh_token: string;
}

async function exchanged(g: Granted): Promise<Tokens> {
  const answer = await exchange(g);
  assert.equal(answer.status, 200, `the code is exchanged: ${JSON.stringify(answer.body)}`);
  assert.match(answer.body.access_token, /^cf_/, 'the access token is a key secret');
  assert.match(answer.body.refresh_token, /^cfr_/, 'the refresh token is a cfr_ token');
  return answer.body as unknown as Tokens;
}

const callWith = (accessToken: string) =>
  postMcp(s.server.mcpUrl, toolCall('service_query_compound', { compound_name: 'ethanol' }), bearer(accessToken));

async function assertWorks(accessToken: string, what: string): Promise<void> {
  const answer = await callWith(accessToken);
  assert.equal(answer.status, 200, `${what} works on /mcp: ${answer.text}`);
  assert.ok(!(answer.json as { error?: unknown }).error, `${what}: tools/call answers without error: ${answer.text}`);
}

/** A refused token: 401 invalid_api_key, an invalid_token challenge, and a message saying why. */
function assertRefused(answer: McpAnswer, why: RegExp, what: string): void {
  assert.equal(answer.status, 401, `${what} is refused on /mcp: ${answer.text}`);
  const body = answer.json as { error: string; message: string };
  assert.equal(body.error, 'invalid_api_key', `${what}: the refusal is invalid_api_key`);
  assert.match(
    answer.headers.get('www-authenticate') ?? '',
    /error="invalid_token"/,
    `${what}: the challenge tells OAuth clients the token is invalid`,
  );
  assert.match(body.message, why, `${what}: the message says why`);
}

function assertGrantRefused(answer: { status: number; body: Record<string, string> }, error: string, what: string) {
  assert.equal(answer.status, 400, `${what}: 400 (${JSON.stringify(answer.body)})`);
  assert.equal(answer.body.error, error, `${what}: ${error} (${JSON.stringify(answer.body)})`);
  assert.equal(answer.body.access_token, undefined, `${what}: no token is issued`);
}

test('a code used twice: the second exchange is refused and the connection the first one made ends', async () => {
  const g = await consentedCode();
  const first = await exchanged(g);
  await assertWorks(first.access_token, 'the first exchange’s access token');

  const replay = await exchange(g);
  assertGrantRefused(replay, 'invalid_grant', 'the same code again');
  assert.match(replay.body.error_description, /already used/, 'the refusal says the code was used already');

  assertRefused(
    await callWith(first.access_token),
    /authorization code that made this connection was used twice/,
    'the access token of a replayed code',
  );
  const refreshed = await refresh(first.refresh_token);
  assertGrantRefused(refreshed, 'invalid_grant', 'the refresh token of a replayed code');
});

test('a code bound to its verifier, client, redirect URI and resource: anything else is refused', async () => {
  const g = await consentedCode();
  const wrongVerifier = await exchange(g, { code_verifier: pkcePair().verifier });
  assertGrantRefused(wrongVerifier, 'invalid_grant', 'a wrong code_verifier');
  assert.match(wrongVerifier.body.error_description, /code_verifier/, 'the refusal names the verifier');
  // A refused verifier does not use the code up: only its holder of the right verifier (the client that
  // started the request) can ever exchange it, and a 256-bit verifier is not guessed in any number of tries.
  const rightVerifier = await exchanged(g);
  await assertWorks(
    rightVerifier.access_token,
    'a code refused once for its verifier, then exchanged with the right one,',
  );

  const h = await consentedCode();
  assertGrantRefused(
    await exchange(h, { client_id: clients.other }),
    'invalid_grant',
    'the code exchanged by another registered client (with the right verifier)',
  );
  assertGrantRefused(
    await exchange(h, { redirect_uri: elsewhere }),
    'invalid_grant',
    'another of the client’s registered redirect URIs than the request used',
  );
  assertGrantRefused(await exchange(h, { redirect_uri: '' }), 'invalid_grant', 'no redirect URI at all');
  assertGrantRefused(
    await exchange(h, { resource: OTHER_RESOURCE }),
    'invalid_target',
    'a token for another resource (RFC 8707)',
  );
  // None of those refusals used the code up (they issued nothing): its own client still exchanges it.
  const legitimate = await exchanged(h);
  await assertWorks(legitimate.access_token, 'the code exchanged by its own client after the refused attempts');
  // Its expiry (60 s) is covered by lib/oauth/tokens.test.ts.
});

test('refresh tokens rotate; a spent one coming back ends the whole connection', async () => {
  const first = await exchanged(await consentedCode());
  const rotated = await refresh(first.refresh_token);
  assert.equal(rotated.status, 200, `the refresh gives a new pair: ${JSON.stringify(rotated.body)}`);
  const second = rotated.body as unknown as Tokens;
  assert.match(second.access_token, /^cf_/, 'a new access token');
  assert.notEqual(second.access_token, first.access_token, 'the access token is new');
  assert.match(second.refresh_token, /^cfr_/, 'a new refresh token');
  assert.notEqual(second.refresh_token, first.refresh_token, 'the refresh token rotated');
  await assertWorks(second.access_token, 'the refreshed access token');

  const reused = await refresh(first.refresh_token);
  assertGrantRefused(reused, 'invalid_grant', 'the spent refresh token again');
  assert.match(reused.body.error_description, /already used/, 'the refusal says the refresh token was used already');
  const why = /refresh token of this connection was used twice/;
  assertRefused(await callWith(second.access_token), why, 'the newest access token after the reuse');
  assertRefused(await callWith(first.access_token), why, 'the first access token after the reuse');
  assertGrantRefused(await refresh(second.refresh_token), 'invalid_grant', 'the newest refresh token after the reuse');
});

test('revocation (RFC 7009): a refresh token ends its connection at once; unknown or foreign tokens get the same 200', async () => {
  const tokens = await exchanged(await consentedCode());
  const revoke = (form: Record<string, string>) => postOAuthForm(`${s.server.baseUrl}/revoke`, form);

  const foreign = await revoke({ token: tokens.refresh_token, client_id: clients.other });
  assert.equal(foreign.status, 200, `another client’s revocation is answered 200 too: ${JSON.stringify(foreign.body)}`);
  await assertWorks(tokens.access_token, 'the access token after another client tried to revoke its refresh token');

  const unknown = await revoke({ token: `cfr_${randomBytes(32).toString('base64url')}`, client_id: clients.app });
  assert.equal(unknown.status, 200, `an unknown token is answered 200 (no oracle): ${JSON.stringify(unknown.body)}`);
  assert.deepEqual(unknown.body, foreign.body, 'unknown and foreign tokens get the same answer');

  const revoked = await revoke({
    token: tokens.refresh_token,
    token_type_hint: 'refresh_token',
    client_id: clients.app,
  });
  assert.equal(revoked.status, 200, `the refresh token is revoked: ${JSON.stringify(revoked.body)}`);
  assert.deepEqual(revoked.body, unknown.body, 'a revocation answers as an unknown token does');
  const deadline = Date.now() + 1000;
  let answer = await callWith(tokens.access_token);
  while (answer.status === 200 && Date.now() < deadline) {
    await sleep(100);
    answer = await callWith(tokens.access_token);
  }
  assertRefused(answer, /revoked by its app/, 'the access token within a second of its connection’s revocation');
  assertGrantRefused(await refresh(tokens.refresh_token), 'invalid_grant', 'the revoked refresh token');
});

/**
 * A page on another origin whose body is `html`: localhost on another port, the same site as the server's
 * pages, so the browser sends the signed-in user's SameSite=Lax session cookie with what it frames or
 * posts, and only the server's own defences stand in the way.
 */
async function otherSite(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

test('the consent page cannot be framed by a page on another origin, and a cross-origin post to it is refused', async (t) => {
  const cb = await startCallback('/csrf-callback');
  t.after(() => cb.close());
  const clientId = await registerPublicClient(s.server.baseUrl, 'Framed Agent', [cb.url]);
  const a = newAuthorization(clientId, cb.url);
  const consent = await page.goto(authorizeUrl(s.server.baseUrl, a));
  assert.ok(consent, 'the browser got an answer');
  const consentUrl = consent.url();
  assert.match(consentUrl, /\/oauth\/consent\?request=[0-9a-f]+\.[0-9a-f]+$/, '/authorize led to the consent page');
  await page.getByRole('heading', { name: 'Allow Framed Agent to use your chemistry tools?' }).waitFor();
  const headers = consent.headers();
  assert.equal(headers['x-frame-options'], 'DENY', 'X-Frame-Options forbids framing (older browsers)');
  assert.match(
    headers['content-security-policy'] ?? '',
    /(^|;\s*)frame-ancestors 'none'(;|$)/,
    `the CSP forbids framing: ${headers['content-security-policy']}`,
  );

  // Clickjacking: a page on another origin frames the consent page in the signed-in user's browser.
  const framing = await otherSite(`<!doctype html><title>Win a prize</title>
    <iframe id="victim" src="${attribute(consentUrl)}" width="800" height="600"></iframe>`);
  t.after(() => framing.close());
  const attacker = await page.context().newPage();
  t.after(() => attacker.close());
  const framedAnswer = attacker.waitForResponse((r) => r.url() === consentUrl);
  await attacker.goto(framing.url, { waitUntil: 'load' });
  assert.equal(
    (await framedAnswer).status(),
    200,
    'the server answered the framed request with the consent page (the session cookie went along)',
  );
  const frame = await (await attacker.locator('#victim').elementHandle())?.contentFrame();
  assert.ok(frame, 'the iframe exists');
  const framedText = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
  assert.doesNotMatch(framedText, /Allow|chemistry tools/, `the frame does not show the consent page: ${framedText}`);
  assert.notEqual(frame.url(), consentUrl, `the frame did not load the consent page (it is at ${frame.url()})`);
  assert.equal(
    await frame.getByRole('button', { name: 'Allow' }).count(),
    0,
    'no Allow button can be clicked in the frame',
  );

  // CSRF: a page on another origin posts the consent form, with every field the real form carries (its
  // anti-forgery token included, as if it had been read), from the signed-in user's browser.
  const fields = await page.evaluate(() => {
    const form = document.querySelector<HTMLInputElement>('input[name="csrf"]')?.form;
    if (!form) return [];
    return [...new FormData(form).entries()].map(([name, value]) => [name, String(value)]);
  });
  assert.ok(
    fields.some(([name]) => name === 'csrf'),
    `the consent form's fields were read: ${fields.map(([n]) => n)}`,
  );
  const inputs = [...fields, ['decision', 'allow']]
    .map(([name, value]) => `<input type="hidden" name="${attribute(name)}" value="${attribute(value)}">`)
    .join('');
  const posting = await otherSite(`<!doctype html><title>Loading…</title>
    <form id="f" method="post" action="${attribute(consentUrl)}">${inputs}</form>
    <script>document.getElementById('f').submit();</script>`);
  t.after(() => posting.close());
  const postAnswer = attacker.waitForResponse((r) => r.url() === consentUrl && r.request().method() === 'POST');
  await attacker.goto(posting.url);
  const posted = await postAnswer;
  assert.equal(posted.status(), 403, 'the server refuses a cross-site post to the consent page');
  assert.equal(
    ((await posted.json()) as { error: string }).error,
    'cross_site_request',
    'refused as a cross-site request',
  );
  const arrived = await Promise.race([cb.next().then((query) => query.toString()), sleep(1500).then(() => null)]);
  assert.equal(arrived, null, `no code reached the app's redirect URI: ${arrived}`);
});

test('mix-up (RFC 9207): the iss sent back with a code is the issuer the metadata names', async () => {
  const g = await consentedCode();
  const metadata = (await (await fetch(`${s.server.baseUrl}/.well-known/oauth-authorization-server`)).json()) as {
    issuer: string;
  };
  assert.equal(metadata.issuer, s.server.baseUrl, 'the issuer is the origin the client reached');
  assert.equal(g.iss, metadata.issuer, 'the authorization response names the issuer of the metadata');
});

test('with PUBLIC_URL, issuer and resource come from it, never from the Host header', async (t) => {
  const publicUrl = 'https://chem.example.test';
  const server = await startTestServer({ PUBLIC_URL: publicUrl });
  t.after(() => server.stop());
  const port = new URL(server.baseUrl).port;
  for (const origin of [server.baseUrl, `http://127.0.0.1:${port}`]) {
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string
    >;
    assert.equal(as.issuer, publicUrl, `reached at ${origin}: the issuer is PUBLIC_URL's`);
    assert.equal(as.token_endpoint, `${publicUrl}/token`, `reached at ${origin}: endpoints are under PUBLIC_URL`);
    const pr = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    assert.equal(pr.resource, `${publicUrl}/mcp`, `reached at ${origin}: the resource is PUBLIC_URL's /mcp`);
    assert.deepEqual(pr.authorization_servers, [publicUrl], `reached at ${origin}: the authorization server too`);
    const unauthorized = await postMcp(`${origin}/mcp`, toolCall('service_query_compound', { compound_name: 'water' }));
    assert.match(
      unauthorized.headers.get('www-authenticate') ?? '',
      /resource_metadata="https:\/\/chem\.example\.test\/\.well-known\/oauth-protected-resource\/mcp"/,
      `reached at ${origin}: /mcp's 401 points at PUBLIC_URL's metadata`,
    );
  }

  const redirect = 'http://127.0.0.1:43210/callback';
  const clientId = await registerPublicClient(server.baseUrl, 'Public Agent', [redirect]);
  const a = newAuthorization(clientId, redirect);
  const hostResource = await fetch(authorizeUrl(server.baseUrl, a, `${server.baseUrl}/mcp`), { redirect: 'manual' });
  assert.equal(hostResource.status, 302, 'a token for the Host header’s /mcp is refused back to the client');
  const refusal = new URL(hostResource.headers.get('location') ?? '');
  assert.equal(refusal.searchParams.get('error'), 'invalid_target', `refused as another resource: ${refusal}`);
  assert.equal(refusal.searchParams.get('iss'), publicUrl, 'the refusal names PUBLIC_URL as the issuer');
  const publicResource = await fetch(authorizeUrl(server.baseUrl, a, `${publicUrl}/mcp`), { redirect: 'manual' });
  assert.equal(publicResource.status, 302, 'a token for PUBLIC_URL’s /mcp is asked for');
  assert.match(
    publicResource.headers.get('location') ?? '',
    /^\/oauth\/consent\?request=/,
    'and goes to the consent page',
  );
  // tools/list needs no token: the server answers normally under PUBLIC_URL.
  assert.equal((await postMcp(server.mcpUrl, rpc('tools/list'))).status, 200);
});

test('no code, access token or refresh token reaches the server’s output', () => {
  const output = s.server.output();
  const banner = output.indexOf('ChemFlow is serving');
  assert.ok(banner >= 0, 'the start banner was printed');
  // The banner prints the demo key once, by design; everything after it must hold no secret.
  const lines = output.slice(banner).split('\n');
  assert.ok(codes.length >= 6, `the tests above obtained codes (${codes.length})`);
  assert.ok(
    lines.some((line) => line.includes('mcp tools/call')),
    'the calls made with the tokens were logged (the check reads the request log)',
  );
  const found = (what: string, matches: (line: string) => boolean) => {
    const hits = lines.filter(matches);
    assert.deepEqual(hits, [], `${what} in the server's output:\n${hits.join('\n')}`);
  };
  found('an access token (cf_…)', (line) => /cf_[0-9A-Za-z]{9,}/.test(line));
  found('a refresh token (cfr_…)', (line) => /cfr_[0-9A-Za-z_-]{9,}/.test(line));
  found('an authorization code', (line) => codes.some((code) => line.includes(code)));
});
