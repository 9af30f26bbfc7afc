import { toolListing } from '@/lib/mcp/registry.ts';
import { SERVER_INFO } from '@/lib/mcp/server.ts';

export const dynamic = 'force-dynamic';

export default function HomePage() {
  return (
    <main>
      <h1>ChemFlow</h1>
      <p>
        Chemistry tools for AI agents over the Model Context Protocol. The endpoint is <code>POST /mcp</code>{' '}
        (stateless Streamable HTTP, answers as server-sent events); tool calls need a <code>cf_</code> API key.
      </p>
      <h2>Try it</h2>
      <pre>{`curl -s http://localhost:3000/mcp \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -H 'Authorization: Bearer cf_…' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_query_compound","arguments":{"compound_name":"ethanol"}}}'`}</pre>
      <h2>Tools</h2>
      <ul>
        {toolListing.map((tool) => (
          <li key={tool.name}>
            <code>{tool.name}</code>: {tool.title}
          </li>
        ))}
      </ul>
      <p>
        <small>
          {SERVER_INFO.name} {SERVER_INFO.version}
        </small>
      </p>
    </main>
  );
}
