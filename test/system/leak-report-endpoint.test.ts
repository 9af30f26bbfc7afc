/**
 * The public leak-report endpoint against a real server: reported keys stop working on /mcp at once,
 * the audit trail names the report and the reporter's address, the answer is the same whether or not
 * a secret was a key, and every bad request gets its status and error code. The server trusts
 * X-Forwarded-For (TRUST_PROXY=1), so each test reports from an address of its own.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDb, type Db } from '../../lib/db/client.ts';
import { bodyCapFor } from '../../lib/http/body-caps.ts';
import { LEAK_REPORT_PATH } from '../../lib/http/cross-site.ts';
import { generateKey } from '../../lib/keys/format.ts';
import { LEAK_REPORT_ACCEPTED_MESSAGE, parseLeakReport } from '../../lib/portal/leak-report.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let server: TestServer;
let db: Db;
let nextAddress = 1;

before(async () => {
  server = await startTestServer({ TRUST_PROXY: '1', LEAK_REPORTS_PER_MINUTE: '3' });
  db = createDb(server.env.DATABASE_URL);
});

after(async () => {
  await db?.$disconnect();
  await server?.stop();
});

/** A documentation address (RFC 5737) no other test reports from. */
function freshAddress(): string {
  return `203.0.113.${nextAddress++}`;
}

function report(body: BodyInit, { from = freshAddress(), contentType = 'application/json', method = 'POST' } = {}) {
  return fetch(`${server.baseUrl}/api/keys/report-leak`, {
    method,
    headers: { 'content-type': contentType, 'x-forwarded-for': from, 'x-forwarded-proto': 'https' },
    body: method === 'GET' ? undefined : body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

function newKey(name: string): { id: string; key: string } {
  const created = server.cli('key', 'create', '--owner', server.adminEmail, '--name', name, '--json');
  assert.equal(created.status, 0, created.stderr);
  return JSON.parse(created.stdout);
}

async function callWith(key: string) {
  return postMcp(server.mcpUrl, toolCall('service_formula_info', { formula: 'H2O' }), bearer(key));
}

test('a reported secret stops working on /mcp at once, and the audit trail names the report and the reporter', async () => {
  const { id, key } = newKey('leaky');
  assert.equal((await callWith(key)).status, 200);
  const from = freshAddress();

  const answer = await report(
    JSON.stringify({ secrets: [`Authorization: Bearer ${key}`], source: 'https://gist.example/abc' }),
    { from },
  );
  assert.equal(answer.status, 202);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.deepEqual(await answer.json(), { received: 1, message: LEAK_REPORT_ACCEPTED_MESSAGE });

  const refused = await callWith(key);
  assert.equal(refused.status, 401);
  assert.equal(errorBody(refused).error, 'invalid_api_key');

  const event = await db.auditEvent.findFirstOrThrow({ where: { keyId: id, action: 'key.leak_disable' } });
  assert.equal(event.actorLabel, 'leak-report');
  assert.equal(event.ip, from);
  assert.equal(event.reason, 'leaked: public report, found at: https://gist.example/abc');
  assert.ok(!JSON.stringify(event).includes(key), 'the audit event must not hold the secret');
  assert.ok(!server.output().includes(key.slice(3)), 'the server log must not hold the secret');
});

test('the answer is byte-identical whether a secret was a key or not', async () => {
  const { key } = newKey('real');
  const forReal = await report(JSON.stringify({ secrets: [key] }));
  const forUnknown = await report(JSON.stringify({ secrets: [generateKey()] }));
  const forJunk = await report(JSON.stringify({ secrets: ['not a key at all'] }));
  const texts = await Promise.all([forReal, forUnknown, forJunk].map((r) => r.text()));
  assert.deepEqual([forReal.status, forUnknown.status, forJunk.status], [202, 202, 202]);
  assert.equal(texts[0], texts[1]);
  assert.equal(texts[0], texts[2]);
  for (const name of ['content-type', 'cache-control'])
    assert.equal(forReal.headers.get(name), forUnknown.headers.get(name));
  assert.equal((await callWith(key)).status, 401);
});

test('GitHub secret scanning reports are accepted and audited with the URL they came from', async () => {
  const { id, key } = newKey('committed');
  const url = 'https://github.com/octo/app/blob/abc123/config.js';
  const answer = await report(
    JSON.stringify([
      { token: key, type: 'chemflow_api_key', url, source: 'content' },
      { token: generateKey(), type: 'chemflow_api_key', url: 'https://github.com/octo/other', source: 'commit' },
    ]),
  );
  assert.equal(answer.status, 202);
  assert.deepEqual(await answer.json(), { received: 2, message: LEAK_REPORT_ACCEPTED_MESSAGE });
  assert.equal((await callWith(key)).status, 401);
  const event = await db.auditEvent.findFirstOrThrow({ where: { keyId: id, action: 'key.leak_disable' } });
  assert.equal(event.reason, `leaked: GitHub secret scanning, found at: ${url} (content)`);
});

test('bad requests get their status, an error code and a message saying what to send', async () => {
  const key = generateKey();
  const oversized = JSON.stringify({ secrets: [key], source: 'x'.repeat(bodyCapFor(LEAK_REPORT_PATH).bytes) });
  const cases: { name: string; answer: Promise<Response>; status: number; error: string; says: RegExp }[] = [
    { name: 'GET', answer: report('', { method: 'GET' }), status: 405, error: 'method_not_allowed', says: /POST/ },
    {
      name: 'form body',
      answer: report(`secrets=${key}`, { contentType: 'application/x-www-form-urlencoded' }),
      status: 415,
      error: 'unsupported_media_type',
      says: /application\/json/,
    },
    { name: 'oversized body', answer: report(oversized), status: 413, error: 'payload_too_large', says: /64 KiB/ },
    {
      name: 'oversized body without a length',
      answer: report(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(oversized));
            c.close();
          },
        }),
      ),
      status: 413,
      error: 'payload_too_large',
      says: /64 KiB/,
    },
    { name: 'broken JSON', answer: report('{"secrets": ['), status: 400, error: 'parse_error', says: /"secrets"/ },
    {
      name: 'a bare string',
      answer: report(JSON.stringify(key)),
      status: 400,
      error: 'invalid_request',
      says: /object or array/,
    },
    {
      name: 'a misspelt field',
      answer: report(JSON.stringify({ secret: [key] })),
      status: 400,
      error: 'invalid_request',
      says: /Unknown field "secret"/,
    },
    {
      name: 'a number among secrets',
      answer: report(JSON.stringify({ secrets: [key, 42] })),
      status: 400,
      error: 'invalid_request',
      says: /"secrets\[1\]" must be a string/,
    },
    {
      name: 'no secrets',
      answer: report(JSON.stringify({ secrets: [] })),
      status: 400,
      error: 'invalid_request',
      says: /no secrets/,
    },
    {
      name: 'a long source',
      answer: report(JSON.stringify({ secrets: [key], source: 's'.repeat(501) })),
      status: 400,
      error: 'invalid_request',
      says: /at most 500 characters/,
    },
    {
      name: 'a GitHub item without token',
      answer: report(JSON.stringify([{ type: 'x', url: 'u' }])),
      status: 400,
      error: 'invalid_request',
      says: /Item 0 .*"token"/,
    },
    {
      name: '1001 secrets',
      answer: report(JSON.stringify({ secrets: Array(1001).fill('cf_x') })),
      status: 400,
      error: 'too_many_secrets',
      says: /at most 1000 .* 1001/,
    },
  ];
  for (const { name, answer, status, error, says } of cases) {
    const response = await answer;
    assert.equal(response.status, status, name);
    assert.equal(response.headers.get('cache-control'), 'no-store', name);
    const body = await response.json();
    assert.equal(body.error, error, name);
    assert.match(body.message, says, name);
    if (status === 405) assert.equal(response.headers.get('allow'), 'POST');
  }
});

test('an address over its allowance gets 429 with Retry-After; other addresses are unaffected', async () => {
  const from = freshAddress();
  const body = JSON.stringify({ secrets: [generateKey()] });
  for (let i = 0; i < 3; i++) assert.equal((await report(body, { from })).status, 202);
  const limited = await report(body, { from });
  assert.equal(limited.status, 429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  const refusal = await limited.json();
  assert.equal(refusal.error, 'rate_limit_exceeded');
  assert.match(refusal.message, /3 reports per minute/);
  assert.equal((await report(body)).status, 202);
});

test('parseLeakReport groups secrets by where they were found and keeps only well-formed keys', () => {
  const [a, b] = [generateKey(), generateKey()];
  const parsed = parseLeakReport({ secrets: [a, ` ${b}\n`, 'cf_nope', a], source: 'pastebin\nline two' });
  assert.ok(parsed.ok);
  assert.equal(parsed.report.received, 4);
  assert.deepEqual([...parsed.report.sightings], [['public report, found at: pastebin line two', [a, b, a]]]);
});
