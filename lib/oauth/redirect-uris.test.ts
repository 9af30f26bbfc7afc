import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectUriProblem } from './redirect-uris.ts';

test('https anywhere and http to a loopback address may be registered by any client', () => {
  for (const uri of [
    'https://claude.ai/api/mcp/auth_callback',
    'https://example.com:8443/cb?tenant=a',
    'http://localhost/callback',
    'http://127.0.0.1:33418',
    'http://[::1]:9000/oauth/callback',
  ]) {
    assert.equal(redirectUriProblem(uri, 'dynamic'), null, uri);
  }
});

test('http elsewhere, fragments, credentials, unsafe schemes and non-URLs are refused, with what is wrong', () => {
  const refused: [string, RegExp][] = [
    ['http://example.com/cb', /http to a host other than this machine/],
    ['http://127.0.0.2.nip.io/cb', /http to a host other than this machine/],
    ['https://example.com/cb#frag', /fragment/],
    ['https://example.com/cb#', /fragment/],
    ['https://user:pw@example.com/cb', /user name or password/],
    ['javascript:alert(1)', /javascript: scheme/],
    ['data:text/html,hi', /data: scheme/],
    ['file:///etc/passwd', /file: scheme/],
    ['/relative/path', /not an absolute URL/],
    [`https://example.com/${'a'.repeat(2_000)}`, /longer than 2000 characters/],
  ];
  for (const [uri, problem] of refused) {
    assert.match(redirectUriProblem(uri, 'dynamic') ?? 'accepted', problem, uri);
    assert.match(redirectUriProblem(uri, 'operator') ?? 'accepted', problem, `${uri} (operator)`);
  }
});

test('a custom scheme is for clients the operator registers only', () => {
  const uri = 'com.example.desktop://oauth/callback';
  assert.match(
    redirectUriProblem(uri, 'dynamic') ?? '',
    /custom scheme com.example.desktop:, which only a client the service's operator registers/,
  );
  assert.equal(redirectUriProblem(uri, 'operator'), null);
});
