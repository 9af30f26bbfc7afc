/** A real MCP SDK client (Client + StreamableHTTPClientTransport, key in headers) against the running server. */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { QueryCompoundResult } from '../../lib/chem/tools/query-compound.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let server: TestServer;
before(async () => (server = await startTestServer()));
after(async () => server?.stop());

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'sdk-client-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl), { requestInit: { headers } }));
  return client;
}

it('connects, lists the tools and calls service_query_compound with the key in Authorization', async () => {
  const client = await connect({ Authorization: `Bearer ${server.demoKey}` });
  assert.equal(client.getServerVersion()?.name, 'service_mcp');
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'service_query_compound'));
  const result = await client.callTool({
    name: 'service_query_compound',
    arguments: { compound_name: 'Carbon dioxide' },
  });
  assert.equal(result.isError, false);
  const doc = result.structuredContent as QueryCompoundResult | undefined;
  assert.ok(doc, 'a structured result');
  assert.equal(doc.cas, '124-38-9');
  assert.equal(doc.properties.critical_temperature?.unit, 'K');
  await client.close();
});

it('sends the key in X-API-Key just as well, and a bad key fails the call with a 401', async () => {
  await new Promise((r) => setTimeout(r, 1100)); // the demo key is free tier: 1 call per second
  const client = await connect({ 'X-API-Key': server.demoKey });
  const result = await client.callTool({ name: 'service_query_compound', arguments: { compound_name: 'methane' } });
  assert.equal(result.isError, false);
  await client.close();

  const stranger = await connect({ 'X-API-Key': 'cf_not_a_real_key' });
  await assert.rejects(
    stranger.callTool({ name: 'service_query_compound', arguments: { compound_name: 'methane' } }),
    /401|invalid_api_key/,
  );
  await stranger.close();
});
