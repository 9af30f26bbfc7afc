/**
 * Copy-paste snippets for calling /mcp, built for the origin the reader is on. The key is never filled
 * in: the portal does not keep secrets, so every snippet reads it from CHEMFLOW_API_KEY or shows cf_….
 */
import { queryCompoundTool } from '@/lib/chem/tools/query-compound.ts';

export const PROTOCOL_VERSION = '2025-06-18';

/**
 * The tools/call every snippet makes, here and in a new key's dialog: the query tool, the one the spec
 * names, on ethanol.
 */
export const EXAMPLE_CALL = { name: queryCompoundTool.name, arguments: { compound_name: 'ethanol' } };

const MCP_HEADERS = "-H 'Content-Type: application/json' \\\n  -H 'Accept: application/json, text/event-stream'";

/** One curl step: POST a JSON-RPC message to /mcp, with the key when the method needs one. */
function curl(origin: string, message: object, withKey: boolean): string {
  const auth = withKey ? ' \\\n  -H "Authorization: Bearer $CHEMFLOW_API_KEY"' : '';
  return `curl -s ${origin}/mcp \\\n  ${MCP_HEADERS}${auth} \\\n  -d '${JSON.stringify(message)}'`;
}

export interface CurlStep {
  method: string;
  needsKey: boolean;
  what: string;
  command: string;
}

export function curlSteps(origin: string): CurlStep[] {
  return [
    {
      method: 'initialize',
      needsKey: false,
      what: 'Negotiates the protocol version and names the server (serverInfo.name is "service_mcp"). Also a good connectivity check.',
      command: curl(
        origin,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'curl', version: '1.0' } },
        },
        false,
      ),
    },
    {
      method: 'notifications/initialized',
      needsKey: false,
      what: 'Optional: the service is stateless, so skipping it changes nothing. It is a notification (no id) and gets 202 with an empty body.',
      command: curl(origin, { jsonrpc: '2.0', method: 'notifications/initialized', params: {} }, false),
    },
    {
      method: 'tools/list',
      needsKey: false,
      what: 'Lists every tool with its input and output schemas (the catalogue below).',
      command: curl(origin, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, false),
    },
    {
      method: 'tools/call',
      needsKey: true,
      what: 'Calls a tool. Needs your key; each call counts against its limits.',
      command: curl(origin, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: EXAMPLE_CALL }, true),
    },
  ];
}

export const SSE_ANSWER = `event: message
data: {"result":{"content":[{"type":"text","text":"{\\"name\\":\\"ethanol\\",\\"cas\\":\\"64-17-5\\",…}"}],"structuredContent":{…},"isError":false},"jsonrpc":"2.0","id":3}`;

export function mcpClientJson(origin: string): string {
  const config = {
    mcpServers: { chemflow: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer cf_…' } } },
  };
  return JSON.stringify(config, null, 2);
}

export function typescriptClient(origin: string): string {
  return `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const transport = new StreamableHTTPClientTransport(new URL('${origin}/mcp'), {
  requestInit: { headers: { Authorization: \`Bearer \${process.env.CHEMFLOW_API_KEY}\` } },
});
const client = new Client({ name: 'my-agent', version: '1.0.0' });
await client.connect(transport);

const { tools } = await client.listTools();
const result = await client.callTool({ name: '${EXAMPLE_CALL.name}', arguments: { compound_name: '${EXAMPLE_CALL.arguments.compound_name}' } });
console.log(result.structuredContent);
await client.close();`;
}

export function pythonClient(origin: string): string {
  return `import asyncio, os
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

async def main():
    headers = {"Authorization": f"Bearer {os.environ['CHEMFLOW_API_KEY']}"}
    async with streamablehttp_client("${origin}/mcp", headers=headers) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            result = await session.call_tool("${EXAMPLE_CALL.name}", ${JSON.stringify(EXAMPLE_CALL.arguments)})
            print(result.structuredContent)

asyncio.run(main())`;
}

export function leakReportCurl(origin: string): string {
  return `curl -s ${origin}/api/keys/report-leak \\
  -H 'Content-Type: application/json' \\
  -d '{"secrets": ["cf_…the leaked key…"], "source": "https://example.com/where-it-was-found"}'`;
}
