/**
 * Benchmark row 2, the protocol's ceiling: the MCP SDK alone in plain node:http, stateless, answering
 * tools/list with a one-tool listing of a few hundred bytes, so it measures the protocol's cost and not
 * JSON size (our full listing is ~95 KB, which makes row 3 slower than row 4). Per request: a
 * low-level SDK `Server` and a WebStandardStreamableHTTPServerTransport, with one shared
 * AjvJsonSchemaValidator (docs/architecture.md). No auth, no limits, no database.
 *
 * Run by tools/bench/main.ts as a child process: `node --import tsx tools/bench/bare-mcp-server.ts <port>`;
 * prints "listening" once it accepts connections.
 */
import http, { type IncomingMessage } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const validator = new AjvJsonSchemaValidator();
const TOOLS = [
  {
    name: 'echo',
    description: 'Returns its argument.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo.' } },
      required: ['text'],
    },
  },
];

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

const server = http.createServer(async (req, res) => {
  try {
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? new Uint8Array(body) : undefined,
    });
    const mcp = new Server(
      { name: 'bare', version: '0.0.0' },
      { capabilities: { tools: {} }, jsonSchemaValidator: validator },
    );
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: false,
    });
    await mcp.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: JSON.parse(body.toString('utf8')) });
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});

server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => console.log('listening'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
