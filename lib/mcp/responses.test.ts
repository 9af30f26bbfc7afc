/**
 * http.ts writes tools/call answers itself instead of handing the computed result to the SDK. These
 * tests hold that answer against the one the SDK's stateless transport writes for the same result, so
 * an SDK upgrade that changes the SSE framing, the key order or the headers fails here.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from './call-tool.ts';
import type { McpAnswer } from './request.ts';
import { sseMessage, toolCallAnswer } from './responses.ts';
import { createMcpServer } from './server.ts';

async function answerFromSdk(id: string | number, params: Record<string, unknown>, result: CallToolResult): Promise<Response> {
  const server = createMcpServer();
  server.setRequestHandler(CallToolRequestSchema, () => result);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
  await server.connect(transport);
  const request = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  return transport.handleRequest(request, { parsedBody: { jsonrpc: '2.0', id, method: 'tools/call', params } });
}

async function describe(answer: Response | McpAnswer) {
  if (!(answer instanceof Response)) answer = new Response(answer.body, answer);
  return { status: answer.status, headers: [...answer.headers].sort(), body: await answer.text() };
}

const calls: Array<[string, Record<string, unknown>]> = [
  ['a compound', { compound_name: 'ethanol' }],
  ['a Chinese name', { compound_name: '乙醇' }],
  ['a name the data lacks, with a Greek letter', { compound_name: 'α-pinene' }],
  ['an unknown compound (tool error)', { compound_name: 'no such compound' }],
  ['bad arguments (tool error)', { compound_name: 42 }],
];

for (const [label, args] of calls) {
  it(`a tools/call answer for ${label} is the SDK's, byte for byte`, async () => {
    const params = { name: 'service_query_compound', arguments: args };
    for (const id of [0, 7, Number.MAX_SAFE_INTEGER, 'req-1', 'ü "quoted" id']) {
      const outcome = await callTool(params.name, args);
      assert.deepEqual(
        await describe(toolCallAnswer(id, outcome)),
        await describe(await answerFromSdk(id, params, outcome.result)),
      );
    }
  });
}

it('a JSON-RPC error answer is framed like the SDK\'s', async () => {
  const server = createMcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
  await server.connect(transport);
  const request = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  const fromSdk = await describe(await transport.handleRequest(request, { parsedBody: { jsonrpc: '2.0', id: 3, method: 'no/such/method' } }));
  const body = JSON.parse(fromSdk.body.replace(/^event: message\ndata: /, ''));
  assert.deepEqual(await describe(sseMessage(body)), fromSdk);
});
