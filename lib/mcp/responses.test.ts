/**
 * handler.ts and tools-call.ts write tools/call and plain tools/list answers itself instead of going through the SDK.
 * These tests hold those answers against the ones the SDK's stateless transport writes for the same
 * message, so an SDK upgrade that changes the SSE framing, the key order or the headers fails here.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpAnswer } from './request.ts';
import { sseMessage, toolCallAnswer, toolListAnswer } from './responses.ts';
import { runTool } from './run-tool.ts';
import { createMcpServer } from './sdk-server.ts';

/** What our SDK server answers `message`; a tools/call gets `toolResult` from its handler. */
async function answerFromSdk(message: Record<string, unknown>, toolResult?: CallToolResult): Promise<Response> {
  const server = createMcpServer();
  if (toolResult) server.setRequestHandler(CallToolRequestSchema, () => toolResult);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: false,
  });
  await server.connect(transport);
  const request = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  return transport.handleRequest(request, { parsedBody: { jsonrpc: '2.0', ...message } });
}

async function onTheWire(answer: Response | McpAnswer) {
  if (!(answer instanceof Response)) answer = new Response(answer.body, answer);
  return { status: answer.status, headers: [...answer.headers].sort(), body: await answer.text() };
}

const IDS = [0, 7, Number.MAX_SAFE_INTEGER, 'req-1', 'ü "quoted" id'];

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
    for (const id of IDS) {
      const outcome = await runTool(params.name, args);
      assert.deepEqual(
        await onTheWire(toolCallAnswer(id, outcome)),
        await onTheWire(await answerFromSdk({ id, method: 'tools/call', params }, outcome.result)),
      );
    }
  });
}

it("a tools/list answer is the SDK's, byte for byte", async () => {
  for (const id of IDS) {
    assert.deepEqual(
      await onTheWire(toolListAnswer(id)),
      await onTheWire(await answerFromSdk({ id, method: 'tools/list' })),
    );
  }
});

it("a JSON-RPC error answer is framed like the SDK's", async () => {
  const fromSdk = await onTheWire(await answerFromSdk({ id: 3, method: 'no/such/method' }));
  const body = JSON.parse(fromSdk.body.replace(/^event: message\ndata: /, ''));
  assert.deepEqual(await onTheWire(sseMessage(body)), fromSdk);
});
