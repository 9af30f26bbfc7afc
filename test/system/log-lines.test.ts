/**
 * The server's logs: JSON lines, one per tools/call, carrying the X-Request-Id the client received and
 * the key's id; no secret anywhere in the output. LOG_LEVEL=warn silences the per-request lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const QUERY_WATER = () => toolCall('service_query_compound', { compound_name: 'water' });

function createKey(server: TestServer, tier: string): { id: string; key: string } {
  const created = server.cli('key', 'create', '--owner', server.adminEmail, '--tier', tier, '--json');
  assert.equal(created.status, 0, created.stderr);
  return JSON.parse(created.stdout);
}

/** The output's JSON lines (the start banner before them is plain text for the person starting it). */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

test('one JSON line per tools/call, with the request id and without the secret', async (t) => {
  const server = await startTestServer();
  t.after(() => server.stop());
  const pro = createKey(server, 'pro');
  const free = createKey(server, 'free');

  const answered = await postMcp(server.mcpUrl, QUERY_WATER(), bearer(pro.key));
  const failed = await postMcp(
    server.mcpUrl,
    toolCall('service_query_compound', { compound_name: 'no such compound' }),
    { 'x-api-key': pro.key },
  );
  const burst = await Promise.all([1, 2, 3].map(() => postMcp(server.mcpUrl, QUERY_WATER(), bearer(free.key))));
  const refused = burst.find((a) => a.status === 429)!;
  assert.ok(refused, 'the free key is rate-limited');
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the last lines reach the pipe

  const lines = jsonLines(server.output()).filter((l) => l.msg === 'mcp tools/call');
  assert.equal(lines.length, 5);
  const byId = new Map(lines.map((l) => [l.requestId, l]));
  const expect = (answer: typeof answered, fields: Record<string, unknown>) => {
    const requestId = answer.headers.get('x-request-id');
    assert.ok(requestId);
    const line = byId.get(requestId);
    assert.ok(line, `a line for ${requestId}`);
    assert.equal(line.level, 'info');
    assert.equal(line.method, 'tools/call');
    assert.equal(line.tool, 'service_query_compound');
    assert.equal(typeof line.latencyMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(String(line.time))));
    for (const [name, value] of Object.entries(fields)) assert.equal(line[name], value, name);
  };
  expect(answered, { outcome: 'success', status: 200, keyId: pro.id });
  expect(failed, { outcome: 'failure', status: 200, keyId: pro.id });
  expect(refused, { outcome: 'rate_limited', status: 429, keyId: free.id });

  const output = server.output();
  for (const secret of [pro.key, free.key]) assert.ok(!output.includes(secret), 'the secret never reaches the logs');
  assert.ok(!output.includes('no such compound'), 'no request bodies');
});

test('LOG_LEVEL=warn silences the per-request lines', async (t) => {
  const server = await startTestServer({ LOG_LEVEL: 'warn' });
  t.after(() => server.stop());
  const answer = await postMcp(server.mcpUrl, QUERY_WATER(), bearer(createKey(server, 'pro').key));
  assert.equal(answer.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(jsonLines(server.output()).filter((l) => l.msg === 'mcp tools/call').length, 0);
});
