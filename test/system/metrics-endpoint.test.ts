/**
 * GET /api/metrics against the real server: calls with keys (successes, a tool failure, an unknown
 * tool, rate-limited calls on a free key) show up as exact counters, the latency histogram's count,
 * the limiter's rejections and the usage-write batch sizes; METRICS_TOKEN guards the endpoint, and
 * without it only this machine (loopback) is answered.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolResult } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTestServer } from '../support/test-server.ts';

const TOKEN = 'metrics-test-token';

/** Sample values by series ("name{labels}" as printed), from the text exposition format. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

test('/api/metrics counts /mcp calls, rejections and usage batches', async (t) => {
  const server = await startTestServer({ METRICS_TOKEN: TOKEN });
  t.after(() => server.stop());
  const created = server.cli('key', 'create', '--owner', server.adminEmail, '--tier', 'pro', '--json');
  assert.equal(created.status, 0, created.stderr);
  const pro = bearer(JSON.parse(created.stdout).key);

  const query = (name: string) => toolCall('service_query_compound', { compound_name: name });
  for (const name of ['water', 'ethanol'])
    assert.equal(toolResult(await postMcp(server.mcpUrl, query(name), pro)).isError, false);
  assert.equal(toolResult(await postMcp(server.mcpUrl, query('no such compound xyz'), pro)).isError, true);
  assert.equal(toolResult(await postMcp(server.mcpUrl, toolCall('no_such_tool_abc', {}), pro)).isError, true);
  // The free demo key allows 1 call per second: of three at once, at least one is refused.
  const burst = await Promise.all([1, 2, 3].map(() => postMcp(server.mcpUrl, query('water'), bearer(server.demoKey))));
  const freeAdmitted = burst.filter((a) => a.status === 200).length;
  const freeRefused = burst.filter((a) => a.status === 429).length;
  assert.equal(freeAdmitted + freeRefused, 3);
  assert.ok(freeRefused >= 1);

  const response = await fetch(`${server.baseUrl}/api/metrics`, { headers: bearer(TOKEN) });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const text = await response.text();
  const samples = parseExposition(text);
  const calls = (tool: string, outcome: string) =>
    samples.get(`chemflow_mcp_tool_calls_total{tool="${tool}",outcome="${outcome}"}`);

  assert.equal(calls('service_query_compound', 'success'), 2 + freeAdmitted);
  assert.equal(calls('service_query_compound', 'failure'), 1);
  assert.equal(calls('service_query_compound', 'rate_limited'), freeRefused);
  assert.equal(calls('unknown_tool', 'failure'), 1, 'tools outside the registry share one label');
  assert.doesNotMatch(text, /no_such_tool_abc/);
  const idle = [...samples].filter(
    ([series]) =>
      series.startsWith('chemflow_mcp_tool_calls_total{tool="service_') && !series.includes('"service_query_compound"'),
  );
  assert.ok(
    idle.length > 0 && idle.every(([, value]) => value === 0),
    "the other tools' series exist from the start, at 0",
  );
  assert.equal(samples.get('chemflow_mcp_tool_call_duration_seconds_count'), 4 + freeAdmitted);
  assert.ok(samples.has('chemflow_mcp_tool_call_duration_seconds_bucket{le="0.005"}'));
  assert.equal(samples.get('chemflow_limiter_rejections_total{reason="rate"}'), freeRefused);
  assert.equal(samples.get('chemflow_limiter_rejections_total{reason="quota"}'), 0);
  assert.ok(samples.get('chemflow_usage_write_batch_size_count')! >= 1);
  assert.equal(
    samples.get('chemflow_usage_write_batch_size_sum'),
    4 + freeAdmitted,
    "every admitted call's row is in a batch, and a 429 writes none",
  );
  assert.equal(samples.get('chemflow_usage_write_failures_total'), 0);
  assert.ok(samples.has('process_resident_memory_bytes'), 'process metrics');
  assert.ok(samples.has('nodejs_eventloop_lag_seconds'), 'Node.js metrics');

  for (const headers of [{}, bearer('wrong-token')]) {
    const refused = await fetch(`${server.baseUrl}/api/metrics`, { headers });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
    assert.doesNotMatch(await refused.text(), /chemflow_/);
  }
});

test('/api/metrics without METRICS_TOKEN answers this machine only: a client forwarded from elsewhere gets 403', async (t) => {
  const server = await startTestServer({ TRUST_PROXY: '1' });
  t.after(() => server.stop());
  const local = await fetch(`${server.baseUrl}/api/metrics`);
  assert.equal(local.status, 200);
  assert.match(await local.text(), /chemflow_/);

  const remote = await fetch(`${server.baseUrl}/api/metrics`, {
    headers: { 'x-forwarded-for': '203.0.113.20', 'x-forwarded-proto': 'https' },
  });
  assert.equal(remote.status, 403);
  const refusal = await remote.json();
  assert.equal(refusal.error, 'metrics_not_public');
  assert.match(refusal.message, /METRICS_TOKEN.*METRICS_OPEN=1/);
});
