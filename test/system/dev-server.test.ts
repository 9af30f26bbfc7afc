/**
 * `npm run dev` serves through server.ts like `npm start`: /mcp answers discovery and tool calls, and
 * Next's development build renders a page under the same headers, its policy allowing the eval React's
 * development build needs.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { listedTools, toolResult } from '../support/mcp-answers.ts';
import { bearer, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { freePort, isolatedEnv, ROOT } from '../support/test-server.ts';

let baseUrl: string;
let demoKey: string;
let output = '';
let stop: () => Promise<void>;

before(async () => {
  const port = await freePort();
  const { dataDir, env } = isolatedEnv({ PORT: String(port) });
  // Its own process group: npm, tsx watch and the server it runs stop together.
  const child = spawn('npm', ['run', 'dev'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm run dev did not serve within 120 s:\n${output}`)), 120_000);
    child.stdout.on('data', () => {
      if (!output.includes('ChemFlow is serving')) return;
      clearTimeout(timer);
      ready();
    });
    child.once('exit', (code) => fail(new Error(`npm run dev exited with ${code}:\n${output}`)));
  });
  baseUrl = `http://localhost:${port}`;
  demoKey = /Demo key \(free\):\s+(cf_\w+)/.exec(output)![1];
});
after(() => stop?.());

test('/mcp answers tools/list without a key and a tool call with the demo key', async () => {
  const listed = await postMcp(`${baseUrl}/mcp`, rpc('tools/list'));
  assert.equal(listed.status, 200, listed.text);
  assert.ok(listedTools(listed).some((tool) => tool.name === 'service_query_compound'));
  const called = await postMcp(
    `${baseUrl}/mcp`,
    toolCall('service_query_compound', { compound_name: 'water' }),
    bearer(demoKey),
  );
  assert.equal(called.status, 200, called.text.slice(0, 300));
  const result = toolResult<{ name: string; cas: string }>(called);
  assert.equal(result.isError, false, called.text.slice(0, 300));
  assert.equal(result.structuredContent?.cas, '7732-18-5');
});

test("a page renders in Next's development build, under the portal's headers with 'unsafe-eval' added", async () => {
  const page = await fetch(`${baseUrl}/signin`);
  assert.equal(page.status, 200, output);
  assert.match(await page.text(), /<form/);
  const policy = page.headers.get('content-security-policy')!;
  assert.match(policy, /script-src 'self' 'nonce-[^']+' 'strict-dynamic' 'unsafe-eval'/);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
});
