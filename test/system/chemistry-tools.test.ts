/**
 * Every chemistry tool in the registry through /mcp with a real key and the MCP SDK client, which also
 * checks each result's structuredContent against the outputSchema the tool declares in tools/list. Each
 * tool answers its own example (the tool's `example`); what that answer holds is checked by the tool's
 * own test.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { registry } from '../../lib/mcp/registry.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const TOOLS = [...registry.values()].map(({ tool }) => tool);

describe('the chemistry tools through /mcp', () => {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startTestServer();
    const created = server.cli(
      'key',
      'create',
      '--owner',
      server.adminEmail,
      '--tier',
      'pro',
      '--rps',
      '1000',
      '--json',
    );
    assert.equal(created.status, 0, created.stderr);
    client = new Client({ name: 'chemistry-tools-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${JSON.parse(created.stdout).key}` } },
      }),
    );
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  it("lists exactly the registry's tools, in its order, each with FastMCP-style input and an output schema", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS.map((t) => t.name),
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.title, `${tool.name}Arguments`, tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      assert.ok((tool.description ?? '').length > 80, `${tool.name} explains itself`);
    }
  });

  for (const tool of TOOLS) {
    it(`${tool.name} answers its example with a structured result`, async () => {
      const result = await client.callTool({ name: tool.name, arguments: tool.example as Record<string, unknown> });
      assert.equal(result.isError, false, JSON.stringify(result.content));
      assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), result.structuredContent);
    });
  }
});
