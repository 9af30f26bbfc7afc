import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fragmentJoback,
  JOBACK_GROUPS,
  JOBACK_PATTERNS,
  JOBACK_SOURCE,
  jobackEstimate,
  jobackHeatCapacity,
} from './joback.ts';
import { ToolError } from './tool.ts';

function near(actual: number | undefined, expected: number, tolerance: number, what: string) {
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual}, expected ${expected} ± ${tolerance}`,
  );
}

test("the table has Joback's 41 groups, and every group has a SMARTS pattern", () => {
  assert.equal(JOBACK_GROUPS.length, 41);
  const patterned = new Set(JOBACK_PATTERNS.map((p) => p.group));
  assert.deepEqual(
    JOBACK_GROUPS.map((g) => g.name).filter((name) => !patterned.has(name)),
    [],
  );
  assert.deepEqual(
    [...patterned].filter((name) => !JOBACK_GROUPS.some((g) => g.name === name)),
    [],
  );
});

test('the group table carries its citation: Joback and Reid (1987), values as tabulated by Poling et al.', () => {
  assert.match(JOBACK_SOURCE, /^K\. G\. Joback, R\. C\. Reid, .* Chem\. Eng\. Commun\. 57 \(1987\) 233–243;/);
  assert.match(JOBACK_SOURCE, /Poling, .* Table 2-2$/);
});

// Acetone by Joback–Reid (the worked example of joback.ts). Tolerances: 0.05 K, 0.05 bar, 0.05 cm3/mol, 0.05 kJ/mol.
// The remaining values follow from the same table row sums (Poling et al. Table 2-2) and are checked
// against a hand calculation: Tm = 122.5 − 2·5.10 + 61.20; ΔGf = 53.88 − 2·43.96 − 120.50;
// ΔHvap = 15.30 + 2·2.373 + 8.972; ΔHfus = −0.88 + 2·0.908 + 4.189; Cp a = 2·19.5 + 6.45 − 37.93.
test('acetone CC(C)=O: the worked example', async () => {
  const groups = await fragmentJoback('CC(C)=O');
  assert.deepEqual(groups.counts, { '-CH3': 2, '>C=O (nonring)': 1 });
  assert.equal(groups.atomCount, 10);
  assert.deepEqual(groups.warnings, []);
  const e = jobackEstimate(groups.counts, { atomCount: groups.atomCount });
  near(e.normal_boiling_point, 322.11, 0.05, 'Tb');
  near(e.critical_temperature, 500.56, 0.05, 'Tc');
  near(e.critical_pressure, 48.02, 0.05, 'Pc');
  near(e.critical_volume, 209.5, 0.05, 'Vc');
  near(e.enthalpy_of_formation_gas, -217.83, 0.05, 'ΔHf°');
  near(e.melting_point, 173.5, 0.005, 'Tm');
  near(e.gibbs_energy_of_formation_gas, -154.54, 0.005, 'ΔGf°');
  near(e.enthalpy_of_vaporization, 29.018, 0.0005, 'ΔHvap');
  near(e.enthalpy_of_fusion, 5.125, 0.0005, 'ΔHfus');
  const cp = e.ideal_gas_heat_capacity!;
  near(cp.a, 7.52, 1e-9, 'Cp a');
  near(cp.b, 0.26084, 1e-9, 'Cp b');
  near(cp.c, -1.207e-4, 1e-12, 'Cp c');
  near(cp.d, 1.546e-8, 1e-15, 'Cp d');
  near(jobackHeatCapacity(cp, 300), 75.326, 0.001, 'Cp(300 K)');
  assert.deepEqual(e.unavailable, {});
});

test('the atom count follows from the groups when not given', () => {
  assert.equal(jobackEstimate({ '-CH3': 2, '>C=O (nonring)': 1 }).atomCount, 10);
  near(jobackEstimate({ '-CH3': 2, '>C=O (nonring)': 1 }).critical_pressure, 48.02, 0.05, 'Pc');
});

test('a given boiling point replaces the estimate in the Tc equation', () => {
  // Acetone's measured Tb, 329.2 K: Tc = 329.2 / 0.6435006 = 511.57 K.
  const e = jobackEstimate({ '-CH3': 2, '>C=O (nonring)': 1 }, { boilingPoint: 329.2 });
  near(e.critical_temperature, 511.57, 0.01, 'Tc');
  assert.deepEqual(e.tcBoilingPoint, { value: 329.2, given: true });
  near(e.normal_boiling_point, 322.11, 0.005, 'Tb is still the estimate');
});

test('groups without a contribution leave those properties out, saying why', () => {
  const e = jobackEstimate({ '-CH3': 2, '=C<': 1, '=NH': 1 });
  assert.equal(e.critical_temperature, undefined);
  assert.equal(e.critical_pressure, undefined);
  assert.match(e.unavailable.critical_temperature ?? '', /no tc contribution for =NH/);
  assert.ok(e.normal_boiling_point !== undefined && e.ideal_gas_heat_capacity !== undefined);
});

test('the Tc equation out of range is reported, not computed', () => {
  const e = jobackEstimate({ '-CH3': 2, '-CH2-': 198 });
  assert.equal(e.critical_temperature, undefined);
  assert.match(e.unavailable.critical_temperature ?? '', /no positive solution/);
});

test('bad group counts are programming errors', () => {
  assert.throws(() => jobackEstimate({ '-CH4': 1 }), /Unknown Joback group "-CH4"/);
  assert.throws(() => jobackEstimate({ '-CH3': 1.5 }), /non-negative integer/);
  assert.throws(() => jobackEstimate({}), /at least one group/);
});

// Group counts (no published property values are relied on here). 2-Ethylphenol is the molecule of
// Poling et al. (2001) Example 2-1, whose groups are 1 -CH3, 1 -CH2-, 4 =CH- (ring), 2 =C< (ring),
// 1 -OH (phenol). Together the molecules below use each of the 41 groups at least once.
const FRAGMENTS: [string, string, Record<string, number>][] = [
  ['2-ethylphenol', 'CCc1ccccc1O', { '-CH3': 1, '-CH2-': 1, '=CH- (ring)': 4, '=C< (ring)': 2, '-OH (phenol)': 1 }],
  ['isobutane', 'CC(C)C', { '-CH3': 3, '>CH-': 1 }],
  ['methyl tert-butyl ether', 'COC(C)(C)C', { '-CH3': 4, '>C<': 1, '-O- (nonring)': 1 }],
  ['isobutene', 'C=C(C)C', { '=CH2': 1, '=C<': 1, '-CH3': 2 }],
  ['propene', 'C=CC', { '=CH2': 1, '=CH-': 1, '-CH3': 1 }],
  ['allene', 'C=C=C', { '=CH2': 2, '=C=': 1 }],
  ['propyne', 'CC#C', { '-CH3': 1, '≡C-': 1, '≡CH': 1 }],
  ['methylcyclohexane', 'CC1CCCCC1', { '-CH3': 1, '>CH- (ring)': 1, '-CH2- (ring)': 5 }],
  ['1,1-dimethylcyclopentane', 'CC1(C)CCCC1', { '-CH3': 2, '>C< (ring)': 1, '-CH2- (ring)': 4 }],
  ['cyclohexene', 'C1=CCCCC1', { '=CH- (ring)': 2, '-CH2- (ring)': 4 }],
  ['toluene', 'Cc1ccccc1', { '-CH3': 1, '=CH- (ring)': 5, '=C< (ring)': 1 }],
  ['fluorobenzene', 'Fc1ccccc1', { '-F': 1, '=CH- (ring)': 5, '=C< (ring)': 1 }],
  ['chloroform', 'ClC(Cl)Cl', { '-Cl': 3, '>CH-': 1 }],
  ['bromoethane', 'CCBr', { '-CH3': 1, '-CH2-': 1, '-Br': 1 }],
  ['iodomethane', 'CI', { '-CH3': 1, '-I': 1 }],
  ['ethanol', 'CCO', { '-CH3': 1, '-CH2-': 1, '-OH (alcohol)': 1 }],
  ['tetrahydrofuran', 'C1CCOC1', { '-CH2- (ring)': 4, '-O- (ring)': 1 }],
  ['furan', 'c1ccoc1', { '=CH- (ring)': 4, '-O- (ring)': 1 }],
  ['butanone', 'CCC(C)=O', { '-CH3': 2, '-CH2-': 1, '>C=O (nonring)': 1 }],
  ['cyclohexanone', 'O=C1CCCCC1', { '>C=O (ring)': 1, '-CH2- (ring)': 5 }],
  ['acetaldehyde', 'CC=O', { '-CH3': 1, 'O=CH- (aldehyde)': 1 }],
  ['acetic acid', 'CC(=O)O', { '-CH3': 1, '-COOH (acid)': 1 }],
  ['ethyl acetate', 'CCOC(C)=O', { '-CH3': 2, '-CH2-': 1, '-COO- (ester)': 1 }],
  ['methylamine', 'CN', { '-CH3': 1, '-NH2': 1 }],
  ['dimethylamine', 'CNC', { '-CH3': 2, '>NH (nonring)': 1 }],
  ['piperidine', 'C1CCNCC1', { '-CH2- (ring)': 5, '>NH (ring)': 1 }],
  ['trimethylamine', 'CN(C)C', { '-CH3': 3, '>N- (nonring)': 1 }],
  ['N-methylethanimine', 'CC=NC', { '-CH3': 2, '=CH-': 1, '-N= (nonring)': 1 }],
  ['pyridine', 'c1ccncc1', { '=CH- (ring)': 5, '-N= (ring)': 1 }],
  ['propan-2-imine', 'CC(C)=N', { '-CH3': 2, '=C<': 1, '=NH': 1 }],
  ['acetonitrile', 'CC#N', { '-CH3': 1, '-CN': 1 }],
  ['nitromethane', 'C[N+](=O)[O-]', { '-CH3': 1, '-NO2': 1 }],
  ['nitromethane, pentavalent N', 'CN(=O)=O', { '-CH3': 1, '-NO2': 1 }],
  ['ethanethiol', 'CCS', { '-CH3': 1, '-CH2-': 1, '-SH': 1 }],
  ['dimethyl sulfide', 'CSC', { '-CH3': 2, '-S- (nonring)': 1 }],
  ['thiophene', 'c1ccsc1', { '=CH- (ring)': 4, '-S- (ring)': 1 }],
  ['carbon dioxide', 'O=C=O', { '=C=': 1, '=O (other than above)': 2 }],
];

test('group counts of molecules covering all 41 groups', async () => {
  const used = new Set<string>();
  for (const [name, smiles, expected] of FRAGMENTS) {
    const { counts, assignments } = await fragmentJoback(smiles);
    assert.deepEqual(counts, expected, name);
    // Every heavy atom is in exactly one group.
    const atoms = assignments.flatMap((a) => a.atoms).sort((a, b) => a - b);
    assert.deepEqual(atoms, [...new Set(atoms)], `${name}: an atom in two groups`);
    for (const group of Object.keys(counts)) used.add(group);
  }
  assert.deepEqual(
    JOBACK_GROUPS.map((g) => g.name).filter((g) => !used.has(g)),
    [],
  );
});

test('hydrogen written explicitly changes nothing', async () => {
  assert.deepEqual((await fragmentJoback('[H]C([H])([H])C(=O)C([H])([H])[H]')).counts, {
    '-CH3': 2,
    '>C=O (nonring)': 1,
  });
});

test('atoms without a group are refused, each named', async () => {
  const refused = async (smiles: string, message: RegExp) =>
    assert.rejects(
      fragmentJoback(smiles),
      (e: unknown) => e instanceof ToolError && e.code === 'missing_data' && message.test(e.message),
      smiles,
    );
  await refused('CS(C)=O', /atom 1 \(S, 3 heavy neighbours, 0 H\)/);
  await refused('C', /atom 0 \(C, 0 heavy neighbours, 4 H\)/);
  await refused('O', /atom 0 \(O, 0 heavy neighbours, 2 H\)/);
  await refused('C[Si](C)(C)C', /atom 1 \(Si, 4 heavy neighbours, 0 H\)/);
  await refused('OP(O)(O)=O', /atom 1 \(P/);
});

test('mixtures and ions are invalid arguments', async () => {
  await assert.rejects(
    fragmentJoback('CC.O'),
    (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments' && /disconnected/.test(e.message),
  );
  await assert.rejects(
    fragmentJoback('CC(=O)[O-]'),
    (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments' && /net charge -1/.test(e.message),
  );
  await assert.rejects(
    fragmentJoback('C1CC'),
    (e: unknown) => e instanceof ToolError && e.code === 'invalid_arguments' && /unclosed ring/.test(e.message),
  );
});

test('approximations are warned about', async () => {
  const anhydride = await fragmentJoback('CC(=O)OC(C)=O');
  assert.deepEqual(anhydride.counts, { '-CH3': 2, '-COO- (ester)': 1, '>C=O (nonring)': 1 });
  assert.match(anhydride.warnings.join(' '), /one of several possible decompositions/);
  assert.match((await fragmentJoback('CN1CCCC1')).warnings.join(' '), /ring N with three heavy neighbours/);
  assert.match((await fragmentJoback('O=C1CCCO1')).warnings.join(' '), /lactone/);
  assert.match((await fragmentJoback('OO')).warnings.join(' '), /no carbon/);
});
