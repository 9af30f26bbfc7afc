/**
 * A slow or failing tool never holds a database transaction or blocks other keys. The handler runs the
 * tool before it touches the usage tables, and the group commit only takes calls that have finished, so
 * a call still waiting in its tool holds nothing. The real tools are neither slow nor failing on
 * purpose, so this suite adds two tools of its own to the live registry for its duration: one that waits
 * until the test lets it finish (slow I/O), and one that throws a plain Error (a bug). Everything else is
 * the real handler on a real SQLite file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { serveMcpInProcess } from '../../test/support/in-process-mcp.ts';
import { bearer, MCP_HEADERS, toolCall } from '../../test/support/mcp-client.ts';
import { scratchPortal } from '../../test/support/portal-db.ts';
import type { ChemTool } from '../chem/tool.ts';
import { sqliteFilePath } from '../db/sqlite-file.ts';

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };

test('a slow tool and a crashing tool hold no transaction and block no other key', async (t) => {
  const portal = await scratchPortal(t); // points DATABASE_URL at its file, which the /mcp service opens
  const mcp = await serveMcpInProcess();
  t.after(mcp.close);
  const { registry, sharedAjv } = await import('./registry.ts');
  const { closeMcpService } = await import('./service.ts');
  t.after(closeMcpService);

  let finishSlowTool!: () => void;
  const slowToolMayFinish = new Promise<void>((resolve) => (finishSlowTool = resolve));
  const slowTool: ChemTool = {
    name: 'test_slow_tool',
    title: 'Slow',
    description: 'Waits until the test lets it finish.',
    inputSchema: EMPTY_OBJECT_SCHEMA,
    outputSchema: { type: 'object' },
    example: {},
    async run() {
      await slowToolMayFinish;
      return { finished: true };
    },
  };
  const crashingTool: ChemTool = {
    name: 'test_crashing_tool',
    title: 'Crashing',
    description: 'Throws like a bug would.',
    inputSchema: EMPTY_OBJECT_SCHEMA,
    outputSchema: { type: 'object' },
    example: {},
    run() {
      throw new TypeError('cannot read properties of undefined (reading "x") at /srv/chemflow/lib/secret.ts:1');
    },
  };
  // The registry is read-only to the service; only this test adds to it, and takes its tools out again.
  const tools = registry as Map<string, unknown>;
  for (const tool of [slowTool, crashingTool]) {
    tools.set(tool.name, { tool, validateArguments: sharedAjv.compile(tool.inputSchema), listing: {} });
  }
  t.after(() => {
    tools.delete(slowTool.name);
    tools.delete(crashingTool.name);
  });

  const [slowKey, otherKey, crashKey] = await Promise.all([
    portal.issue(portal.ada, 'slow', 'pro'),
    portal.issue(portal.bob, 'other', 'pro'),
    portal.issue(portal.bob, 'crash', 'pro'),
  ]);
  const call = async (key: string, name: string, args: Record<string, unknown> = {}) => {
    const response = await fetch(mcp.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...bearer(key) },
      body: JSON.stringify(toolCall(name, args)),
    });
    const text = await response.text();
    return {
      status: response.status,
      message: JSON.parse(
        text
          .split('\n')
          .find((l) => l.startsWith('data:'))!
          .slice(5),
      ),
    };
  };
  const file = new Database(sqliteFilePath(portal.url));
  t.after(() => file.close());
  file.pragma('busy_timeout = 0'); // a held write lock must show up as SQLITE_BUSY at once, not after a wait
  const recorded = (tool: string) =>
    file.prepare('SELECT "outcome", "errorCode" FROM "CallLog" WHERE "tool" = ?').all(tool);

  let slowAnswered = false;
  const slowCall = call(slowKey.secret, slowTool.name).finally(() => (slowAnswered = true));

  await t.test('while the slow tool runs, other keys and the same key are answered and recorded', async () => {
    for (const key of [otherKey.secret, otherKey.secret, slowKey.secret]) {
      const answer = await call(key, 'service_query_compound', { compound_name: 'water' });
      assert.equal(answer.status, 200);
      assert.equal(answer.message.result.isError, false);
    }
    assert.equal(recorded('service_query_compound').length, 3, 'their rows are committed already');
    assert.equal(slowAnswered, false, 'the slow call is still running');
  });

  await t.test('while the slow tool runs, no transaction is open: another writer gets the lock at once', () => {
    file.exec('BEGIN IMMEDIATE');
    file.exec('ROLLBACK');
    assert.equal(recorded(slowTool.name).length, 0, 'nothing is written for a call that has not finished');
  });

  await t.test(
    'a crashing tool answers a tool error without internals, is recorded as a failure, and holds nothing',
    async () => {
      const answer = await call(crashKey.secret, crashingTool.name);
      assert.equal(answer.status, 200);
      assert.equal(answer.message.result.isError, true);
      const body = JSON.parse(answer.message.result.content[0].text);
      assert.equal(body.error, 'internal_error');
      assert.doesNotMatch(body.message, /TypeError|undefined|secret\.ts|\/srv/);
      assert.deepEqual(recorded(crashingTool.name), [{ outcome: 'failure', errorCode: 'internal_error' }]);
      file.exec('BEGIN IMMEDIATE');
      file.exec('ROLLBACK');
    },
  );

  await t.test('the slow call is answered and recorded once its tool finishes', async () => {
    finishSlowTool();
    const answer = await slowCall;
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.message.result.content[0].text), { finished: true });
    assert.deepEqual(recorded(slowTool.name), [{ outcome: 'success', errorCode: null }]);
  });
});
