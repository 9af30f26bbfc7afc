/**
 * The landing page: what ChemFlow is, its tools (from the live registry), and the way in: sign up or
 * sign in, or straight to the keys for someone signed in, and the docs.
 */
import Link from 'next/link';
import { toolListing } from '@/lib/mcp/registry.ts';
import { currentViewer } from '@/lib/portal/viewer.ts';
import { currentTiers, tiersInBrief } from './docs/tiers.ts';
import './home.css';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const [viewer, tiers] = await Promise.all([currentViewer(), currentTiers()]);
  return (
    <div className="home">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">Chemistry tools for AI agents</h1>
        <p className="lede">
          ChemFlow is a Model Context Protocol (MCP) server. Your agent looks up compound data and runs
          chemical-engineering calculations through one endpoint, and every value it gets back carries its unit and
          literature source.
        </p>
        <div className="actions">
          {viewer ? (
            <Link href="/keys" className="button">
              Go to your keys
            </Link>
          ) : (
            <>
              <Link href="/signup" className="button">
                Sign up for a free key
              </Link>
              <Link href="/signin" className="button secondary">
                Sign in
              </Link>
            </>
          )}
          <Link href="/docs">Read the docs: connect in 5 minutes</Link>
        </div>
        <p className="muted">{tiersInBrief(tiers)}</p>
      </section>

      <section aria-labelledby="home-tools">
        <h2 id="home-tools">{toolListing.length} tools</h2>
        <ul className="home-tools">
          {toolListing.map((tool) => (
            <li key={tool.name}>
              <Link href={`/docs#${tool.name}`}>{tool.title}</Link>
              <code>{tool.name}</code>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-how">
        <h2 id="home-how">How it works</h2>
        <ol>
          <li>
            Create an account and a key (<code>cf_…</code>) in the portal.
          </li>
          <li>
            Point your MCP client at <code>/mcp</code> with the key in the <code>Authorization</code> header.
          </li>
          <li>Watch each key&apos;s calls, failures and quota on its page; disable or reissue it any time.</li>
        </ol>
      </section>
    </div>
  );
}
