/**
 * Results JSON cannot carry: a tool that computes Infinity or NaN would answer
 * `value: null` as a success, which its output schema does not allow. Against the production server,
 * every tool gets arguments from its input schema with numbers at the edges of the double range
 * (test/support/mcp-arbitraries.ts extremeArguments): each answer must be a tool error, or a
 * success whose structuredContent validates against the tool's outputSchema (so no null where a number
 * belongs). An overflow is the tool error `result_out_of_range`, recorded as a failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { toolListing } from '../../lib/mcp/registry.ts';
import { listedTools, toolResult } from '../support/mcp-answers.ts';
import { extremeArguments, type ToolListing } from '../support/mcp-arbitraries.ts';
import { bearer, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SEED = 20261313;
const RUNS_PER_TOOL = 60;

describe('tool results with numbers JSON cannot carry', { concurrency: false }, () => {
  let server: TestServer;
  let key: string;
  let tools: (ToolListing & { outputSchema: object })[];
  let db: Database.Database;

  before(async () => {
    server = await startTestServer({ LOG_LEVEL: 'warn' });
    const created = server.cli(
      'key',
      'create',
      '--owner',
      server.adminEmail,
      '--json',
      '--tier',
      'pro',
      '--daily-quota',
      '1000000',
      '--rps',
      '100000',
      '--name',
      'extremes',
    );
    assert.equal(created.status, 0, created.stderr);
    key = JSON.parse(created.stdout).key;
    tools = listedTools(await postMcp(server.mcpUrl, rpc('tools/list')));
    assert.deepEqual(
      tools.map((t) => t.name),
      toolListing.map((t) => t.name),
    );
    db = new Database(sqliteFilePath(server.env.DATABASE_URL!), { readonly: true, fileMustExist: true });
  });
  after(async () => {
    db?.close();
    await server?.stop();
  });

  async function call(name: string, args: Record<string, unknown>) {
    const answer = await postMcp(server.mcpUrl, toolCall(name, args), bearer(key));
    assert.equal(answer.status, 200, answer.text);
    return { answer, result: toolResult(answer) };
  }

  it("1e308 atm in Pa is a result_out_of_range failure; an ideal gas at 1e308 K is refused before it overflows (out_of_range, outside every Cp° method's range); both recorded as such", async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        'service_convert_units',
        { value: 1e308, from_unit: 'atm', to_unit: 'Pa' },
        'result_out_of_range',
        /outside what the tool can compute.*smaller magnitudes/,
      ],
      [
        'service_ideal_gas_thermo',
        { compound_name: 'ethanol', temperature: 1e308 },
        'out_of_range',
        /No method for the ideal-gas Cp° of ethanol holds at 1e\+308 K.*ranges/,
      ],
    ];
    for (const [name, args, code, message] of cases) {
      const { answer, result } = await call(name, args);
      assert.equal(result.isError, true, `${name}: ${answer.text}`);
      assert.equal(result.structuredContent, undefined);
      const body = JSON.parse(result.content[0].text);
      assert.equal(body.error, code, answer.text);
      assert.match(body.message, message);
      const row = db
        .prepare('SELECT tool, outcome, errorCode FROM "CallLog" WHERE requestId = ?')
        .get(answer.headers.get('x-request-id'));
      assert.deepEqual(row, { tool: name, outcome: 'failure', errorCode: code });
    }
  });

  it('every tool, at the edges of the double range: a tool error, or a success that matches its output schema', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const seen = { successes: 0, outOfRange: 0, otherErrors: 0 };
    for (const [index, tool] of tools.entries()) {
      const validOutput = ajv.compile(tool.outputSchema);
      await fc.assert(
        fc.asyncProperty(extremeArguments(tool), async (args) => {
          const { answer, result } = await call(tool.name, args);
          if (result.isError) {
            const code = JSON.parse(result.content[0].text).error;
            assert.notEqual(code, 'internal_error', answer.text);
            if (code === 'result_out_of_range') seen.outOfRange++;
            else seen.otherErrors++;
            return;
          }
          seen.successes++;
          assert.ok(
            validOutput(result.structuredContent),
            `${tool.name} ${JSON.stringify(args)} → ${JSON.stringify(validOutput.errors)}\n${answer.text.slice(0, 600)}`,
          );
          assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_TOOL },
      );
    }
    console.log(`extreme arguments: ${JSON.stringify(seen)}`);
    // Not vacuous: some calls computed, some overflowed.
    assert.ok(seen.successes > 0 && seen.outOfRange > 0, JSON.stringify(seen));
  });
});
