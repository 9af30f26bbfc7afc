/**
 * MCP clients that connect by URL and sign in with OAuth, against the production server: the client meets
 * /mcp's 401, discovers the authorization server, registers itself, and sends its user to the consent
 * page, where a real browser (signed in) clicks Allow. The client's first tools/call then succeeds with
 * the access token (a cf_ secret of a new key named after the client), shows on that key's page, is
 * refreshed once it expires, and stops when the key is disabled.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';
import { signUp } from '../test/support/browser.ts';
import { bearer, postMcp, toolCall } from '../test/support/mcp-client.ts';
import { allowInBrowser, MemoryOAuthProvider, startCallback } from '../test/support/oauth-client.ts';
import { type ServerAndBrowser, startServerAndBrowser } from '../test/support/server-and-browser.ts';

/** Short enough that the refresh is seen within the test. */
const ACCESS_TOKEN_SECONDS = 3;
const CALL = { name: 'service_query_compound', arguments: { compound_name: 'ethanol' } };

let s: ServerAndBrowser;
let page: Page;
before(async () => {
  s = await startServerAndBrowser({ OAUTH_ACCESS_TOKEN_SECONDS: String(ACCESS_TOKEN_SECONDS) });
  page = await (await s.browser.newContext()).newPage();
  await signUp(page, s.server.baseUrl, 'agent-owner@example.test');
});
after(() => s?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the MCP SDK client: discovery, registration, consent, PKCE, token, a call on the key page, a refresh, a disabled key', async (t) => {
  const callback = await startCallback();
  t.after(() => callback.close());
  const provider = new MemoryOAuthProvider(callback.url, 'Example Agent');
  const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(s.server.mcpUrl), { authProvider: provider });
  t.after(() => client.close());
  // initialize and tools/list need no key; the first tools/call starts the authorization.
  await client.connect(transport);
  await assert.rejects(client.callTool(CALL), /Unauthorized/);
  assert.ok(provider.authorizationUrl, 'the client was sent to /authorize');
  assert.equal(provider.authorizationUrl.searchParams.get('code_challenge_method'), 'S256');

  await page.goto(provider.authorizationUrl.href);
  await page.getByRole('heading', { name: 'Allow Example Agent to use your chemistry tools?' }).waitFor();
  await page.getByText(/returns to 127\.0\.0\.1:\d+/).waitFor();
  assert.ok(
    await page.getByLabel(/A new free key, “Example Agent \(connector\)”/).isChecked(),
    'a new key is the default',
  );
  await allowInBrowser(page, provider.authorizationUrl.href);
  const answer = await callback.next();
  assert.equal(answer.get('iss'), s.server.baseUrl, 'RFC 9207: the issuer comes back with the code');
  const code = answer.get('code');
  assert.ok(code, `a code came back: ${answer}`);
  await transport.finishAuth(code);

  const first = await client.callTool(CALL);
  assert.ok(!first.isError, JSON.stringify(first));
  const firstToken = provider.tokens()?.access_token ?? '';
  assert.match(firstToken, /^cf_/, 'the access token is a key secret');

  await sleep(ACCESS_TOKEN_SECONDS * 1000 + 500);
  const expired = await postMcp(s.server.mcpUrl, toolCall(CALL.name, CALL.arguments), bearer(firstToken));
  assert.equal(expired.status, 401, 'the first token expired');
  const refreshed = await client.callTool(CALL);
  assert.ok(!refreshed.isError, 'the client refreshed and called again');
  const secondToken = provider.tokens()?.access_token ?? '';
  assert.notEqual(secondToken, firstToken);

  await page.goto(`${s.server.baseUrl}/keys`);
  await page.getByRole('link', { name: 'Example Agent (connector)' }).click();
  await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
  await page.getByText('Example Agent', { exact: true }).first().waitFor();
  await page.getByRole('cell', { name: 'service_query_compound' }).first().waitFor();
  const keyId = new URL(page.url()).pathname.split('/').pop() ?? '';

  s.server.cliOk('key', 'disable', keyId, '--reason', 'the agent is retired');
  const refused = await postMcp(s.server.mcpUrl, toolCall(CALL.name, CALL.arguments), bearer(secondToken));
  assert.equal(refused.status, 401);
  assert.equal((refused.json as { error: string }).error, 'invalid_api_key');
  const challenge = refused.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /error="invalid_token"/);
  assert.match(challenge, /resource_metadata="http:\/\/localhost:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
  // The client's refresh is refused too (the key no longer works), so it asks its user to authorize again.
  provider.authorizationUrl = undefined;
  await assert.rejects(client.callTool(CALL), /Unauthorized|no longer works/);
  assert.ok(provider.authorizationUrl, 'the client sends its user to authorize again');
});

test('signed out, the authorization URL leads to sign-in, which comes back to the same request; Deny answers access_denied', async (t) => {
  const callback = await startCallback();
  t.after(() => callback.close());
  const provider = new MemoryOAuthProvider(callback.url, 'Returning Agent');
  const client = new Client({ name: 'oauth-e2e-return', version: '1.0.0' });
  t.after(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(new URL(s.server.mcpUrl), { authProvider: provider }));
  await assert.rejects(client.callTool(CALL), /Unauthorized/);
  const authorizationUrl = provider.authorizationUrl?.href ?? '';
  const state = provider.authorizationUrl?.searchParams.get('state');

  const signedOut = await (await s.browser.newContext()).newPage();
  t.after(() => signedOut.context().close());
  await signedOut.goto(authorizationUrl);
  await signedOut.waitForURL(/\/signin\?next=%2Foauth%2Fconsent/);
  await signedOut.getByLabel('Email').fill('agent-owner@example.test');
  await signedOut.getByLabel('Password').fill('correct horse battery staple');
  await signedOut.getByRole('button', { name: 'Sign in' }).click();
  await signedOut.getByRole('heading', { name: 'Allow Returning Agent to use your chemistry tools?' }).waitFor();
  await signedOut.getByRole('button', { name: 'Deny' }).click();
  const answer = await callback.next();
  assert.equal(answer.get('error'), 'access_denied');
  assert.ok(state, 'the client sent a state');
  assert.equal(answer.get('state'), state, 'the state comes back');
  assert.equal(answer.get('iss'), s.server.baseUrl);
  assert.equal(answer.get('code'), null);
});
