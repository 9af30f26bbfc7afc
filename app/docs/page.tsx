/**
 * Connect & docs (public): how to call /mcp step by step, client configuration, the tool catalogue
 * from the live registry, the limits from the Tier table, the errors, and the leaked-key report.
 * Snippets use the origin the reader came in on, so they paste as they are.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { toolListing } from '@/lib/mcp/registry.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { ErrorTables } from './ErrorTables.tsx';
import { LeakReportSection } from './LeakReportSection.tsx';
import { LimitsSection } from './LimitsSection.tsx';
import { OpenToolFromHash } from './OpenToolFromHash.tsx';
import { requestOrigin } from './origin.ts';
import { curlSteps, mcpClientJson, pythonClient, SSE_ANSWER, typescriptClient } from './snippets.ts';
import { ToolCatalogue } from './ToolCatalogue.tsx';
import { currentTiers, tiersInBrief } from './tiers.ts';
import './docs.css';

export const metadata: Metadata = { title: 'Connect & docs' };
export const dynamic = 'force-dynamic';

const SECTIONS = [
  { id: 'curl', label: 'Call /mcp with curl' },
  { id: 'clients', label: 'Client configuration' },
  { id: 'tools', label: 'Tools' },
  { id: 'limits', label: 'Limits' },
  { id: 'errors', label: 'Errors' },
  { id: 'report-leak', label: 'Report a leaked key' },
];

export default async function DocsPage() {
  const [origin, viewer, tiers] = await Promise.all([requestOrigin(), currentViewer(), currentTiers()]);
  return (
    <div className="docs">
      <h1>Connect &amp; docs</h1>
      <p className="lede">
        ChemFlow is an MCP server: send JSON-RPC 2.0 messages with <code>POST {origin}/mcp</code>. It is stateless
        Streamable HTTP (no session to keep), and each answer comes back as one server-sent event whose{' '}
        <code>data:</code> line holds the JSON-RPC response. Discovery needs no key; tool calls need a <code>cf_</code>{' '}
        API key.
      </p>
      <div className="panel get-key">
        {viewer ? (
          <p>
            <strong>Your key:</strong> create or find one on <Link href="/keys">your keys page</Link>. Its secret is
            shown only once, when it is created; after that, reissue it if you lost it.
          </p>
        ) : (
          <p>
            <strong>Get a key:</strong> <Link href="/signup">create a free account</Link>, then create a key. Already
            have an account? <Link href="/signin?next=/keys">Sign in</Link>. {tiersInBrief(tiers)}
          </p>
        )}
      </div>

      <nav aria-label="On this page" className="toc">
        <ol>
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.label}</a>
            </li>
          ))}
        </ol>
      </nav>

      <section aria-labelledby="curl">
        <h2 id="curl">Call /mcp with curl</h2>
        <p>Put your key in an environment variable first, so it stays out of the commands you share:</p>
        <CodeBlock caption="Shell: your key" code="export CHEMFLOW_API_KEY='cf_…your key…'" />
        <p>
          Every request sends <code>Content-Type: application/json</code> and{' '}
          <code>Accept: application/json, text/event-stream</code>. The key goes in{' '}
          <code>Authorization: Bearer cf_…</code> (recommended) or <code>X-API-Key: cf_…</code>.
        </p>
        <ol className="steps">
          {curlSteps(origin).map((step) => (
            <li key={step.method}>
              <h3>
                <code>{step.method}</code>{' '}
                <span className="muted">{step.needsKey ? '(needs your key)' : '(no key needed)'}</span>
              </h3>
              <p>{step.what}</p>
              <CodeBlock caption={`curl: ${step.method}`} code={step.command} />
            </li>
          ))}
        </ol>
        <p>The answer to a request (here, the tools/call above, abridged):</p>
        <CodeBlock caption="Answer: one server-sent event" code={SSE_ANSWER} copy={false} />
        <p>
          The tool&apos;s result is in <code>result.structuredContent</code>, and the same JSON as text in{' '}
          <code>result.content[0].text</code>. Every value carries its unit and literature source.
        </p>
      </section>

      <section aria-labelledby="clients">
        <h2 id="clients">Client configuration</h2>
        <h3>MCP clients (Claude Code, Cursor, and others)</h3>
        <p>
          Add ChemFlow to the client&apos;s MCP server list and replace <code>cf_…</code> with your key. Some clients
          call the transport <code>&quot;streamable-http&quot;</code> instead of <code>&quot;http&quot;</code>.
        </p>
        <CodeBlock caption="MCP client JSON" code={mcpClientJson(origin)} />
        <h3>TypeScript: the MCP SDK</h3>
        <p>
          <code>npm install @modelcontextprotocol/sdk</code>, then:
        </p>
        <CodeBlock caption="TypeScript SDK client" code={typescriptClient(origin)} />
        <h3>Python: the mcp package</h3>
        <p>
          <code>pip install mcp</code>, then:
        </p>
        <CodeBlock caption="Python mcp client" code={pythonClient(origin)} />
        <p className="muted">
          Keep keys out of code that runs in browsers or apps you ship: call ChemFlow from your backend, and give each
          use its own key, so one leak means reissuing one key.
        </p>
      </section>

      <section aria-labelledby="tools">
        <h2 id="tools">Tools ({toolListing.length})</h2>
        <p>
          As <code>tools/list</code> returns them right now. Open a tool to see its arguments. Quantities take an
          optional unit argument (K and Pa by default), and every value comes back with its unit.
        </p>
        <ToolCatalogue />
        <OpenToolFromHash />
      </section>

      <section aria-labelledby="limits">
        <h2 id="limits">Limits</h2>
        <LimitsSection tiers={tiers} />
      </section>

      <section aria-labelledby="errors">
        <h2 id="errors">Errors</h2>
        <ErrorTables />
      </section>

      <section aria-labelledby="report-leak">
        <h2 id="report-leak">Report a leaked key</h2>
        <LeakReportSection origin={origin} />
      </section>
    </div>
  );
}
