/**
 * The published tools, stated once. The interface spec (service-interface.md §1, §4.3) promises 12 tools
 * and names one, service_query_compound, which takes compound_name (§2.4, §4.4); the other names are ours,
 * published by tools/list and docs/tools.md, and clients call them by name, so none may be renamed or
 * dropped. Every other test takes the tools, and how many there are, from the registry.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argumentsSchema } from '../../../test/support/tool-schemas.ts';
import { chemTools } from './index.ts';

/** The spec's count of tools (§1, §4.3). */
const SPEC_TOOL_COUNT = 12;

/** The published names, in the order tools/list shows them. */
const PUBLISHED_TOOLS = [
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

test('the registry holds exactly the published tools, in the order tools/list shows them', () => {
  assert.deepEqual(
    chemTools.map((tool) => tool.name),
    PUBLISHED_TOOLS,
  );
});

test('as many tools as the spec promises, and its one named tool takes compound_name', () => {
  assert.equal(chemTools.length, SPEC_TOOL_COUNT);
  const query = chemTools.find((tool) => tool.name === 'service_query_compound');
  assert.ok(query, 'service_query_compound is registered');
  const schema = argumentsSchema(query);
  assert.equal(schema.properties.compound_name?.type, 'string');
  assert.ok(schema.required.includes('compound_name'));
});
