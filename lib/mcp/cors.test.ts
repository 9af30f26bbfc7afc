/**
 * CORS_ORIGINS narrows which browser origins may call /mcp. The origin check comes before anything
 * else, so these requests go straight to the handler, served in-process.
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { serveMcpInProcess } from '../../test/support/in-process-mcp.ts';

// test-isolation: process (CORS_ORIGINS must be set before config() reads and caches it)
process.env.CORS_ORIGINS = 'https://agent.example, https://lab.example';
const mcp = await serveMcpInProcess();
after(mcp.close);

const preflight = (origin: string) =>
  fetch(mcp.url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-api-key, content-type',
    },
  });

it('answers preflights from configured origins, naming the origin and the key headers', async () => {
  const response = await preflight('https://lab.example');
  assert.equal(response.status, 204);
  assert.equal(response.headers.get('access-control-allow-origin'), 'https://lab.example');
  assert.match(response.headers.get('access-control-allow-headers')!, /X-API-Key/);
  assert.match(response.headers.get('access-control-expose-headers')!, /X-RateLimit-Reset/);
});

it('refuses other origins with a 403 that says how to allow them', async () => {
  for (const response of [
    await preflight('https://evil.example'),
    await fetch(mcp.url, { method: 'POST', headers: { origin: 'https://evil.example' }, body: '{}' }),
  ]) {
    assert.equal(response.status, 403);
    const body = await response.json();
    assert.equal(body.error, 'origin_not_allowed');
    assert.match(body.message, /CORS_ORIGINS/);
  }
});
