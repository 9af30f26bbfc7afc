/**
 * CORS_ORIGINS narrows which browser origins may call /mcp. The origin check comes before anything
 * else, so these requests go straight to the handler, served in-process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { serveMcpInProcess } from '../../test/support/in-process-mcp.ts';
import { migrateDatabase } from '../db/migrate.ts';

// test-isolation: process (CORS_ORIGINS and DATABASE_URL must be set before config() reads and caches them)
process.env.CORS_ORIGINS = 'https://agent.example, https://lab.example';
const dataDir = mkdtempSync(join(tmpdir(), 'chemflow-cors-'));
process.env.DATABASE_URL = `file:${join(dataDir, 'test.db')}`;
await migrateDatabase(process.env.DATABASE_URL);
const mcp = await serveMcpInProcess();
after(async () => {
  await mcp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

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
