import assert from 'node:assert/strict';
import { test } from 'node:test';
// Ajv comes with @modelcontextprotocol/sdk, which validates structuredContent with it; strict mode
// here also catches keywords the schemas misspell.
import { Ajv } from 'ajv';
import { argumentsSchema, schemaNode } from '../../../test/support/tool-schemas.ts';
import { chemsepEntry } from '../chemsep-layer.ts';
import { allCompounds } from '../compounds.ts';
import { PROPERTY_DEFINITIONS, PROPERTY_KEYS, type PropertyKey } from '../properties.ts';
import { ToolError } from '../tool.ts';
import { type QueryCompoundResult, queryCompoundTool } from './query-compound.ts';

/** run() for a catalogue compound: answered synchronously (the hot path), never through a Promise. */
function catalogueRun(name: string): QueryCompoundResult {
  const result = queryCompoundTool.run({ compound_name: name });
  assert.ok(!(result instanceof Promise), `${name} was not answered from the catalogue`);
  return result;
}

const ajv = new Ajv({ strict: true, allErrors: true });
const validateOutput = ajv.compile(queryCompoundTool.outputSchema);
const validateInput = ajv.compile(queryCompoundTool.inputSchema);

test("its example, water, is answered from the catalogue with water's CAS number", () => {
  assert.equal(catalogueRun(queryCompoundTool.example.compound_name).cas, '7732-18-5');
});

test('input schema is FastMCP style and accepts exactly one compound_name', () => {
  const schema = argumentsSchema(queryCompoundTool);
  assert.equal(schema.type, 'object');
  assert.equal(schema.title, 'service_query_compoundArguments');
  assert.equal(schema.properties.compound_name.title, 'Compound Name');
  assert.deepEqual(schema.required, ['compound_name']);
  assert.ok(validateInput({ compound_name: 'ethanol' }));
  assert.equal(validateInput({}), false);
  assert.equal(validateInput({ compound_name: 'ethanol', unit: 'K' }), false);
  assert.equal(validateInput({ compound_name: 42 }), false);
});

test('the result for every compound validates against the output schema', () => {
  for (const c of allCompounds()) {
    const result = catalogueRun(c.name);
    assert.ok(validateOutput(result), `${c.name}: ${ajv.errorsText(validateOutput.errors)}`);
  }
});

test('the output schema rejects what the contract excludes', () => {
  const result = structuredClone(catalogueRun('ethanol'));
  // Broken on purpose through views that let a unit go, and a property the catalogue lacks appear.
  const tc: { unit?: string } | undefined = result.properties.critical_temperature;
  assert.ok(tc);
  delete tc.unit;
  assert.equal(validateOutput(result), false);
  const unknown = structuredClone(catalogueRun('ethanol'));
  const unknownProperties: Record<string, unknown> = unknown.properties;
  unknownProperties.boiling_point = { value: 351, unit: 'K', source: 'x' };
  assert.equal(validateOutput(unknown), false);
});

test('the output schema names every catalogue property, and answers give each in its catalogue unit', async () => {
  const named = schemaNode(queryCompoundTool.outputSchema).properties?.properties as {
    propertyNames?: { enum?: string[] };
  };
  assert.deepEqual(named.propertyNames?.enum, PROPERTY_KEYS);
  // caffeine: an estimated answer, found through the name table.
  for (const name of ['water', 'ethanol', 'carbon dioxide', 'propane', 'caffeine']) {
    for (const [key, value] of Object.entries((await queryCompoundTool.run({ compound_name: name })).properties)) {
      assert.equal(value?.unit, PROPERTY_DEFINITIONS[key as PropertyKey].unit, `${name} ${key}`);
    }
  }
});

test('answers ethanol with units, sources and how the query was read', () => {
  const r = catalogueRun('EtOH');
  assert.equal(r.name, 'ethanol');
  assert.equal(r.cas, '64-17-5');
  assert.equal(r.formula, 'C2H6O');
  assert.equal(r.inchikey, 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
  assert.ok(r.synonyms.includes('乙醇'));
  assert.deepEqual(r.match, { query: 'EtOH', by: 'synonym' });
  assert.deepEqual(r.properties.molecular_weight && { ...r.properties.molecular_weight, source: '…' }, {
    value: 46.069,
    unit: 'g/mol',
    source: '…',
    method: 'sum of IUPAC 2021 standard atomic weights over the formula',
  });
  assert.equal(r.properties.critical_temperature?.unit, 'K');
  assert.equal(r.properties.critical_pressure?.unit, 'bar');
  assert.match(r.properties.critical_temperature?.source ?? '', /Poling/);
});

test('labels CO2: a sublimation point instead of a boiling point, and a triple-point melting point', () => {
  const r = catalogueRun('二氧化碳');
  assert.equal(r.properties.normal_boiling_point, undefined);
  assert.ok(Math.abs((r.properties.sublimation_point?.value ?? 0) - 194.7) < 0.1);
  assert.match(r.properties.sublimation_point?.note ?? '', /no normal boiling point/);
  assert.ok(Math.abs((r.properties.melting_point?.value ?? 0) - 216.6) < 0.1);
  assert.match(r.properties.melting_point?.note ?? '', /[Tt]riple.point.*5\.1795 bar/);
});

test('an answer cannot change the data behind the next one: its compound data is frozen', () => {
  const first = catalogueRun('water');
  assert.throws(() => {
    first.properties.critical_temperature!.value = 0;
  }, TypeError);
  assert.throws(() => first.synonyms.push('x'), TypeError);
  first.match.query = 'changed'; // the per-call part is the caller's own
  const second = catalogueRun('water');
  assert.equal(second.match.query, 'water');
  assert.equal(second.properties.critical_temperature?.value, 647.096);
  assert.ok(!second.synonyms.includes('x'));
});

test('caller mistakes are ToolErrors', () => {
  assert.throws(
    () => queryCompoundTool.run({ compound_name: 'ethanoll' }),
    (e) => e instanceof ToolError && e.code === 'compound_not_found',
  );
  assert.throws(
    () => queryCompoundTool.run({ compound_name: ' ' }),
    (e) => e instanceof ToolError && e.code === 'invalid_arguments',
  );
});

// ΔHvap and liquid Cp come from ChemSep's fits, evaluated at the compound's own normal boiling point;
// checked here against Clausius–Clapeyron on the same compound's vapour-pressure fit (ideal vapour,
// no liquid volume: reads high by the vapour's ΔZ, a few percent at 1 atm, for non-associating liquids).
test('reports ΔHvap and liquid Cp at the normal boiling point and 298.15 K, with temperature, method and source', () => {
  const water = catalogueRun('water');
  const atTb = water.properties.enthalpy_of_vaporization_at_boiling_point!;
  assert.equal(atTb.unit, 'kJ/mol');
  assert.equal(atTb.temperature!.value, water.properties.normal_boiling_point!.value);
  // From IAPWS-95 (h″ − h′): 2256.4 kJ/kg at the normal boiling point in its steam tables, 40.65 kJ/mol;
  // ChemSep's fit agrees within 1 %.
  assert.match(atTb.method!, /^reference equation of state/);
  assert.ok(Math.abs(atTb.value - 40.65) < 0.01, `${atTb.value} kJ/mol`);
  const chemsep = chemsepEntry('7732-18-5')!.correlations.heat_of_vaporization!.value(atTb.temperature!.value) / 1000;
  assert.ok(Math.abs(atTb.value / chemsep - 1) < 0.01, `${atTb.value} vs ChemSep ${chemsep} kJ/mol`);
  assert.equal(water.properties.enthalpy_of_vaporization_298k!.temperature!.value, 298.15);
  assert.equal(water.properties.liquid_heat_capacity_298k!.unit, 'J/(mol·K)');
  // Vaporization takes less enthalpy nearer the critical point: ΔHvap(Tb) < ΔHvap(298.15 K) for water.
  assert.ok(atTb.value < water.properties.enthalpy_of_vaporization_298k!.value);
  const ethanol = catalogueRun('ethanol');
  const tb = ethanol.properties.normal_boiling_point!.value;
  const psat = chemsepEntry('64-17-5')!.correlations.vapor_pressure!;
  const h = 0.01;
  const clapeyron =
    (-8.314462618e-3 * (Math.log(psat.value(tb + h)) - Math.log(psat.value(tb - h)))) / (1 / (tb + h) - 1 / (tb - h));
  const dh = ethanol.properties.enthalpy_of_vaporization_at_boiling_point!.value;
  assert.ok(dh < clapeyron && dh > 0.9 * clapeyron, `${dh} vs Clausius–Clapeyron ${clapeyron} kJ/mol`);
  // CO2 has no normal boiling point (it sublimes), so only the 298.15 K values can appear.
  assert.equal(catalogueRun('CO2').properties.enthalpy_of_vaporization_at_boiling_point, undefined);
});

test('air: a pseudo-pure fluid with its composition, the equation’s molar mass and critical point, no formula', () => {
  const r = queryCompoundTool.run({ compound_name: 'air' }) as QueryCompoundResult;
  assert.ok(validateOutput(r), JSON.stringify(validateOutput.errors));
  assert.equal(r.cas, '132259-10-0');
  assert.equal(r.formula, undefined);
  assert.equal(r.smiles, undefined);
  assert.deepEqual(
    r.composition?.components.map((c) => [c.name, c.mole_fraction]),
    [
      ['nitrogen', 0.7812],
      ['argon', 0.0092],
      ['oxygen', 0.2096],
    ],
  );
  assert.equal(r.properties.molecular_weight?.value, 28.9586);
  assert.match(r.properties.molecular_weight?.source ?? '', /Lemmon/);
  assert.equal(r.properties.critical_temperature?.value, 132.5306);
  assert.match(r.properties.critical_temperature?.note ?? '', /maxcondentherm.* 132\.6312 K/);
  assert.match(
    r.notes?.[0] ?? '',
    /pseudo-pure fluid.*service_eos_state and service_ideal_gas_thermo.*no formula, SMILES, vapour pressure or boiling point/,
  );
  assert.deepEqual(r.match, { query: 'air', by: 'name' });
  assert.equal((queryCompoundTool.run({ compound_name: '132259-10-0' }) as QueryCompoundResult).match.by, 'cas');
  assert.equal((queryCompoundTool.run({ compound_name: 'atmosphere' }) as QueryCompoundResult).match.by, 'synonym');
});

test('steam and water vapour are water; a fuel is is_mixture', () => {
  assert.equal(catalogueRun('steam').name, 'water');
  assert.equal(catalogueRun('water vapour').name, 'water');
  assert.throws(
    () => queryCompoundTool.run({ compound_name: 'gasoline' }),
    (e: unknown) => e instanceof ToolError && e.code === 'is_mixture',
  );
});
