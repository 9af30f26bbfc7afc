/**
 * All 12 chemistry tools through /mcp with a real key and the MCP SDK client, which also checks each
 * result's structuredContent against the outputSchema the tool declares in tools/list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ConvertUnitsResult } from '../../lib/chem/tools/convert-units.ts';
import { TOOL_EXAMPLES } from '../../lib/chem/tools/examples.ts';
import type { FormulaInfoResult } from '../../lib/chem/tools/formula-info.ts';
import type { QueryCompoundResult } from '../../lib/chem/tools/query-compound.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const TOOL_NAMES = [
  'service_query_compound',
  'service_search_compounds',
  'service_convert_units',
  'service_vapor_pressure',
  'service_boiling_point',
  'service_eos_state',
  'service_mixture_properties',
  'service_ideal_gas_thermo',
  'service_liquid_density',
  'service_estimate_joback',
  'service_formula_info',
  'service_molecule_descriptors',
];

/** Checks on the answers to the documented example calls (lib/chem/tools/examples.ts). */
const CHECKS: Record<string, (doc: unknown) => void> = {
  service_query_compound: (d) => assert.equal((d as QueryCompoundResult).cas, '7732-18-5'),
  service_search_compounds: (d) => assert.ok(JSON.stringify(d).includes('106-97-8')),
  service_convert_units: (d) => assert.equal((d as ConvertUnitsResult).value.value, 101.325),
  service_vapor_pressure: (d) => assert.ok(JSON.stringify(d).includes('IAPWS')),
  service_boiling_point: (d) => assert.ok(JSON.stringify(d).includes('373.1')),
  service_eos_state: (d) => assert.match(JSON.stringify(d), /Reference equation of state for n-Propane/),
  service_mixture_properties: (d) => assert.ok(JSON.stringify(d).toLowerCase().includes('kay')),
  service_ideal_gas_thermo: (d) => assert.ok(JSON.stringify(d).includes('J/(mol·K)')),
  service_liquid_density: (d) => assert.match(JSON.stringify(d), /Reference equation of state for n-Propane/),
  service_estimate_joback: (d) => assert.ok(JSON.stringify(d).includes('Joback')),
  service_formula_info: (d) => assert.ok(Math.abs((d as FormulaInfoResult).molar_mass.value - 249.677) < 0.001),
  service_molecule_descriptors: (d) => assert.ok(JSON.stringify(d).includes('180.04')),
};

describe('the chemistry tools through /mcp', () => {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startTestServer();
    const created = server.cli(
      'key',
      'create',
      '--owner',
      server.adminEmail,
      '--tier',
      'pro',
      '--rps',
      '1000',
      '--json',
    );
    assert.equal(created.status, 0, created.stderr);
    client = new Client({ name: 'chemistry-tools-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${JSON.parse(created.stdout).key}` } },
      }),
    );
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  it('lists exactly the 12 tools, each with FastMCP-style input and an output schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    for (const tool of tools) {
      assert.equal(tool.inputSchema.title, `${tool.name}Arguments`, tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      assert.ok((tool.description ?? '').length > 80, `${tool.name} explains itself`);
    }
  });

  for (const name of TOOL_NAMES) {
    it(`${name} answers its documented example with a structured result`, async () => {
      const result = await client.callTool({ name, arguments: TOOL_EXAMPLES[name] });
      assert.equal(result.isError, false, JSON.stringify(result.content));
      const doc = result.structuredContent;
      assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), doc);
      CHECKS[name](doc);
    });
  }
});
