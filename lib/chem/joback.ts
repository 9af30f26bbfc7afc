/**
 * Joback–Reid group contribution method: normal boiling and melting points, critical constants,
 * ideal-gas enthalpy and Gibbs energy of formation, enthalpies of vaporisation and fusion and an
 * ideal-gas Cp polynomial of an organic molecule, from counts of 41 structural groups.
 *
 * Source: K. G. Joback, R. C. Reid, "Estimation of Pure-Component Properties from Group-Contributions",
 * Chem. Eng. Commun. 57 (1987) 233–243 (from K. G. Joback, S.M. thesis, MIT, 1984); group values as
 * tabulated by B. E. Poling, J. M. Prausnitz, J. P. O'Connell, The Properties of Gases and Liquids,
 * 5th ed., McGraw-Hill (2001), Table 2-2. The table, with that citation, is data/joback-groups.json.
 *
 * Two parts: `jobackEstimate(counts)` is the pure arithmetic on group counts; `fragmentJoback(smiles)`
 * finds the groups in a molecule with RDKit SMARTS matching, assigning every heavy atom to exactly one
 * group, and refuses a molecule with atoms the table has no group for (naming them).
 *
 * Worked example (checked in joback.test.ts): acetone CC(C)=O is 2 × -CH3 +
 * 1 × >C=O (nonring), 10 atoms: Tb = 198.2 + 2·23.58 + 76.75 = 322.11 K; Σtc = 0.0662 so
 * Tc = 322.11 / (0.584 + 0.965·0.0662 − 0.0662²) = 500.56 K; Pc = (0.113 + 0.0032·10 − 0.0007)^−2 = 48.02 bar;
 * Vc = 17.5 + 2·65 + 62 = 209.5 cm3/mol; ΔHf° = 68.29 − 2·76.45 − 133.22 = −217.83 kJ/mol.
 */
import jobackGroups from './data/joback-groups.json' with { type: 'json' };
import { deepFreeze } from './json-checks.ts';
import {
  formalCharge,
  guarded,
  inchiIdentity,
  loadedRDKit,
  loadRDKit,
  type Molecule,
  type RDKitModule,
  withMolecule,
} from './rdkit.ts';
import { ToolError } from './tool.ts';

export const JOBACK_METHOD = 'Joback–Reid group contribution';
/** The citation of the group table, as its data file gives it. */
export const JOBACK_SOURCE: string = jobackGroups.source;

/** One row of Joback's table. null: the table has no value for that group (the property is then not estimated). */
interface GroupRow {
  /** Joback's symbol, e.g. "-CH3", ">C=O (ring)". */
  name: string;
  /** Heavy atoms and hydrogens the group stands for: with them a molecule's atom count follows from its groups. */
  heavyAtoms: number;
  hydrogens: number;
  /** Dimensionless contributions to Tc and Pc. */
  tc: number | null;
  pc: number | null;
  /** cm3/mol */
  vc: number | null;
  /** K */
  tb: number | null;
  tm: number | null;
  /** kJ/mol */
  hf: number | null;
  gf: number | null;
  /** Cp contributions: a J/(mol·K), b J/(mol·K²), c J/(mol·K³), d J/(mol·K⁴). */
  a: number | null;
  b: number | null;
  c: number | null;
  d: number | null;
  /** kJ/mol */
  hfus: number | null;
  hvap: number | null;
}

/** The group contributions that `jobackEstimate` sums. */
type Column = Exclude<keyof GroupRow, 'name' | 'heavyAtoms' | 'hydrogens'>;

/** Joback's 41 groups in the table's order (data/joback-groups.json). */
export const JOBACK_GROUPS: readonly Readonly<GroupRow>[] = deepFreeze(jobackGroups.groups);

const BY_NAME = new Map(JOBACK_GROUPS.map((g) => [g.name, g]));

/** Group name (Joback's symbol, as in JOBACK_GROUPS) → how many times the molecule has it. */
export type JobackGroupCounts = Readonly<Record<string, number>>;

/** Cp°(T) = a + b·T + c·T² + d·T³, J/(mol·K), T in K. */
export interface HeatCapacityPolynomial {
  a: number;
  b: number;
  c: number;
  d: number;
}

/**
 * Where Joback's Cp° polynomial holds: 273 to about 1000 K, as Joback & Reid (1987) give it (stated so in the
 * method's public summary, Wikipedia "Joback method", Heat Capacity (Ideal Gas)); the group values were
 * fitted to ideal-gas data from 298 to 1000 K. service_ideal_gas_thermo answers from it only within this
 * range and its extrapolation allowance (./method-chain.ts).
 */
export const JOBACK_CP_RANGE = { min: 273, max: 1000, unit: 'K' } as const;

export type JobackProperty =
  | 'normal_boiling_point'
  | 'melting_point'
  | 'critical_temperature'
  | 'critical_pressure'
  | 'critical_volume'
  | 'enthalpy_of_formation_gas'
  | 'gibbs_energy_of_formation_gas'
  | 'enthalpy_of_vaporization'
  | 'enthalpy_of_fusion'
  | 'ideal_gas_heat_capacity';

export interface JobackEstimates {
  /** Tb, K. */
  normal_boiling_point?: number;
  /** Tm, K. */
  melting_point?: number;
  /** Tc, K, from `tcBoilingPoint`. */
  critical_temperature?: number;
  /** Pc, bar. */
  critical_pressure?: number;
  /** Vc, cm3/mol. */
  critical_volume?: number;
  /** ΔHf° of the ideal gas at 298.15 K, kJ/mol. */
  enthalpy_of_formation_gas?: number;
  /** ΔGf° of the ideal gas at 298.15 K, kJ/mol. */
  gibbs_energy_of_formation_gas?: number;
  /** ΔHvap at the normal boiling point, kJ/mol. */
  enthalpy_of_vaporization?: number;
  /** ΔHfus at the melting point, kJ/mol. */
  enthalpy_of_fusion?: number;
  /** Ideal-gas Cp° polynomial, J/(mol·K) with T in K; see JOBACK_CP_RANGE. */
  ideal_gas_heat_capacity?: HeatCapacityPolynomial;
  /** Total atoms (hydrogens included) used in the Pc equation. */
  atomCount: number;
  /** The boiling point the Tc equation used, K, and whether it was given or estimated. */
  tcBoilingPoint?: { value: number; given: boolean };
  /** Σtc, to judge the Tc equation: its denominator peaks at Σtc = 0.4825 and turns negative near 1.39. */
  tcSum?: number;
  /** Properties not estimated, each with the reason (a group without a contribution, an equation out of range). */
  unavailable: Partial<Record<JobackProperty, string>>;
}

/**
 * Joback–Reid estimates from group counts (pure arithmetic; see the file comment for the source and a
 * worked example). Equations, with N_k the count of group k:
 *   Tb = 198.2 + ΣN·tb  (K)                      Tm = 122.5 + ΣN·tm  (K)
 *   Tc = Tb / (0.584 + 0.965·ΣN·tc − (ΣN·tc)²)  (K)
 *   Pc = (0.113 + 0.0032·nA − ΣN·pc)^−2  (bar; nA = number of atoms, hydrogens included)
 *   Vc = 17.5 + ΣN·vc  (cm3/mol)
 *   ΔHf°(298 K, ideal gas) = 68.29 + ΣN·hf,  ΔGf° = 53.88 + ΣN·gf  (kJ/mol)
 *   ΔHvap(Tb) = 15.30 + ΣN·hvap,  ΔHfus = −0.88 + ΣN·hfus  (kJ/mol)
 *   Cp° = (ΣN·a − 37.93) + (ΣN·b + 0.210)·T + (ΣN·c − 3.91e−4)·T² + (ΣN·d + 2.06e−7)·T³  (J/(mol·K), T in K)
 * Options: `atomCount` (nA) when the molecule has hydrogens its groups do not stand for (formic acid,
 * formaldehyde, HCN); otherwise it is summed from the groups. `boilingPoint` (K): a measured Tb for
 * the Tc equation, which Joback found far more accurate than with the estimated one.
 */
export function jobackEstimate(
  counts: JobackGroupCounts,
  options: { atomCount?: number; boilingPoint?: number } = {},
): JobackEstimates {
  const present = Object.entries(counts).filter(([, n]) => n !== 0);
  for (const [name, n] of present) {
    if (!BY_NAME.has(name))
      throw new Error(`Unknown Joback group "${name}"; the groups are: ${JOBACK_GROUPS.map((g) => g.name).join(', ')}`);
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`Joback group count must be a non-negative integer: ${name} = ${n}`);
  }
  if (present.length === 0) throw new Error('Joback estimate needs at least one group');
  const rows = present.map(([name, n]) => [BY_NAME.get(name)!, n] as const);

  const unavailable: Partial<Record<JobackProperty, string>> = {};
  /** ΣN·column, or undefined (with the reason recorded) when a present group has no value in that column. */
  const sum = (column: Column, property: JobackProperty): number | undefined => {
    const lacking = rows.filter(([g]) => g[column] === null).map(([g]) => g.name);
    if (lacking.length > 0) {
      unavailable[property] ??= `Joback's table has no ${column} contribution for ${lacking.join(', ')}`;
      return undefined;
    }
    return rows.reduce((s, [g, n]) => s + (g[column] as number) * n, 0);
  };

  const atomCount = options.atomCount ?? rows.reduce((s, [g, n]) => s + (g.heavyAtoms + g.hydrogens) * n, 0);
  const result: JobackEstimates = { atomCount, unavailable };

  const tb = sum('tb', 'normal_boiling_point');
  if (tb !== undefined) result.normal_boiling_point = 198.2 + tb;
  const tm = sum('tm', 'melting_point');
  if (tm !== undefined) result.melting_point = 122.5 + tm;

  const tc = sum('tc', 'critical_temperature');
  const tbForTc = options.boilingPoint ?? result.normal_boiling_point;
  if (tc !== undefined && tbForTc !== undefined) {
    const denominator = 0.584 + 0.965 * tc - tc * tc;
    result.tcSum = tc;
    if (denominator > 0) {
      result.critical_temperature = tbForTc / denominator;
      result.tcBoilingPoint = { value: tbForTc, given: options.boilingPoint !== undefined };
    } else {
      unavailable.critical_temperature = `the Tc equation has no positive solution for Σtc = ${tc.toFixed(4)} (the molecule is far larger than those Joback fitted)`;
    }
  }

  const pc = sum('pc', 'critical_pressure');
  if (pc !== undefined) {
    const base = 0.113 + 0.0032 * atomCount - pc;
    if (base > 0) result.critical_pressure = base ** -2;
    else
      unavailable.critical_pressure = `the Pc equation has no solution (0.113 + 0.0032·nA − Σpc = ${base.toFixed(4)} ≤ 0)`;
  }
  const vc = sum('vc', 'critical_volume');
  if (vc !== undefined) result.critical_volume = 17.5 + vc;
  const hf = sum('hf', 'enthalpy_of_formation_gas');
  if (hf !== undefined) result.enthalpy_of_formation_gas = 68.29 + hf;
  const gf = sum('gf', 'gibbs_energy_of_formation_gas');
  if (gf !== undefined) result.gibbs_energy_of_formation_gas = 53.88 + gf;
  const hvap = sum('hvap', 'enthalpy_of_vaporization');
  if (hvap !== undefined) result.enthalpy_of_vaporization = 15.3 + hvap;
  const hfus = sum('hfus', 'enthalpy_of_fusion');
  if (hfus !== undefined) result.enthalpy_of_fusion = -0.88 + hfus;

  const [a, b, c, d] = (['a', 'b', 'c', 'd'] as const).map((column) => sum(column, 'ideal_gas_heat_capacity'));
  if (a !== undefined && b !== undefined && c !== undefined && d !== undefined) {
    result.ideal_gas_heat_capacity = { a: a - 37.93, b: b + 0.21, c: c - 3.91e-4, d: d + 2.06e-7 };
  }
  return result;
}

/** Cp° of the ideal gas, J/(mol·K), at `temperature` K, from a Joback polynomial. */
export function jobackHeatCapacity({ a, b, c, d }: HeatCapacityPolynomial, temperature: number): number {
  return a + temperature * (b + temperature * (c + temperature * d));
}

/**
 * How to find each group: SMARTS whose first `owns` atoms belong to the group (later atoms are
 * context). Hydrogen counts (H), total connections (X, hydrogens included) and ring membership (R)
 * make the single-atom patterns disjoint. Patterns are applied in this order and an atom, once
 * assigned, is not taken again: the multi-atom groups come first, so acetic acid's C=O is -COOH's,
 * not a ketone's. Aromatic atoms count as the ring groups Joback used for them (benzene = 6 × =CH- (ring)).
 */
export const JOBACK_PATTERNS: readonly { group: string; smarts: string; owns: number; warning?: string }[] = [
  // Formic acid, formaldehyde and HCN are these groups with a hydrogen in place of the free bond.
  { group: '-COOH (acid)', smarts: '[CX3](=[OX1])[OX2H1]', owns: 3 },
  { group: '-COO- (ester)', smarts: '[CX3](=[OX1])[OX2H0][#6]', owns: 3 },
  { group: 'O=CH- (aldehyde)', smarts: '[CX3;H1,H2]=[OX1]', owns: 2 },
  { group: '>C=O (nonring)', smarts: '[CX3H0;!R]=[OX1]', owns: 2 },
  { group: '>C=O (ring)', smarts: '[#6X3H0;R]=[OX1]', owns: 2 },
  { group: '-CN', smarts: '[CX2]#[NX1]', owns: 2 },
  { group: '-NO2', smarts: '[#7X3](~[OX1])~[OX1]', owns: 3 },
  { group: '-CH3', smarts: '[CX4H3]', owns: 1 },
  { group: '-CH2-', smarts: '[CX4H2;!R]', owns: 1 },
  { group: '>CH-', smarts: '[CX4H1;!R]', owns: 1 },
  { group: '>C<', smarts: '[CX4H0;!R]', owns: 1 },
  { group: '=CH2', smarts: '[CX3H2]', owns: 1 },
  { group: '=CH-', smarts: '[CX3H1;!R]', owns: 1 },
  { group: '=C<', smarts: '[CX3H0;!R]', owns: 1 },
  { group: '=C=', smarts: '[CX2H0](=*)=*', owns: 1 },
  { group: '≡CH', smarts: '[CX2H1]#*', owns: 1 },
  { group: '≡C-', smarts: '[CX2H0]#*', owns: 1 },
  { group: '-CH2- (ring)', smarts: '[CX4H2;R]', owns: 1 },
  { group: '>CH- (ring)', smarts: '[CX4H1;R]', owns: 1 },
  { group: '>C< (ring)', smarts: '[CX4H0;R]', owns: 1 },
  { group: '=CH- (ring)', smarts: '[#6X3H1;R]', owns: 1 },
  { group: '=C< (ring)', smarts: '[#6X3H0;R]', owns: 1 },
  { group: '-F', smarts: '[FX1]', owns: 1 },
  { group: '-Cl', smarts: '[ClX1]', owns: 1 },
  { group: '-Br', smarts: '[BrX1]', owns: 1 },
  { group: '-I', smarts: '[IX1]', owns: 1 },
  { group: '-OH (phenol)', smarts: '[OX2H1]a', owns: 1 },
  { group: '-OH (alcohol)', smarts: '[OX2H1]', owns: 1 },
  { group: '-O- (nonring)', smarts: '[OX2H0;!R]', owns: 1 },
  { group: '-O- (ring)', smarts: '[#8X2H0;R]', owns: 1 },
  { group: '=O (other than above)', smarts: '[OX1]=*', owns: 1 },
  { group: '-NH2', smarts: '[NX3H2]', owns: 1 },
  { group: '>NH (nonring)', smarts: '[NX3H1;!R]', owns: 1 },
  { group: '>NH (ring)', smarts: '[#7X3H1;R]', owns: 1 },
  { group: '>N- (nonring)', smarts: '[NX3H0;!R]', owns: 1 },
  {
    group: '>N- (nonring)',
    smarts: '[#7X3H0;R]',
    owns: 1,
    warning:
      "Joback's table has no group for a ring N with three heavy neighbours; it was counted as >N- (nonring), an approximation.",
  },
  { group: '-N= (nonring)', smarts: '[#7X2H0;!R]', owns: 1 },
  { group: '-N= (ring)', smarts: '[#7X2H0;R]', owns: 1 },
  { group: '=NH', smarts: '[#7X2H1]', owns: 1 },
  { group: '-SH', smarts: '[SX2H1]', owns: 1 },
  { group: '-S- (nonring)', smarts: '[#16X2H0;!R]', owns: 1 },
  { group: '-S- (ring)', smarts: '[#16X2H0;R]', owns: 1 },
];

export interface JobackFragmentation {
  counts: JobackGroupCounts;
  /** Each group found, with the heavy atoms it covers (indices from 0 in the order of the SMILES). */
  assignments: { group: string; atoms: number[] }[];
  /** All atoms, hydrogens included (nA of the Pc equation). */
  atomCount: number;
  canonicalSmiles: string;
  formula?: string;
  warnings: string[];
}

/** Compiled SMARTS, per RDKit module (a module dropped after a trap takes its queries with it). */
const compiled = new WeakMap<RDKitModule, Molecule[]>();

function queries(rdkit: RDKitModule): Molecule[] {
  let list = compiled.get(rdkit);
  if (!list) {
    list = JOBACK_PATTERNS.map(({ smarts }) => {
      const query = rdkit.get_qmol(smarts);
      if (!query) throw new Error(`Joback SMARTS does not parse: ${smarts}`);
      return query;
    });
    compiled.set(rdkit, list);
  }
  return list;
}

/**
 * Joback groups of the molecule `smiles` (loads RDKit if needed). Throws ToolError: invalid_arguments
 * for an unparseable SMILES, several molecules or an ion; missing_data, naming the atoms, when
 * some heavy atom belongs to no group of Joback's table (e.g. methane, water, a sulfone, silicon).
 */
export async function fragmentJoback(smiles: string): Promise<JobackFragmentation> {
  await loadRDKit();
  return withMolecule(smiles, (mol) => jobackGroupsOf(mol, smiles));
}

function jobackGroupsOf(mol: Molecule, smiles: string): JobackFragmentation {
  const rdkit = loadedRDKit()!;
  const canonicalSmiles = mol.get_smiles();
  if (canonicalSmiles.includes('.')) {
    throw new ToolError(
      'invalid_arguments',
      `"${smiles}" is several disconnected molecules; Joback's method estimates one pure compound at a time.`,
    );
  }
  const charge = formalCharge(mol);
  if (charge !== 0)
    throw new ToolError(
      'invalid_arguments',
      `"${smiles}" has net charge ${charge}; Joback's method applies to neutral molecules.`,
    );

  const atoms = atomDescriptions(mol);
  const owner = new Array<string | undefined>(atoms.length).fill(undefined);
  const assignments: { group: string; atoms: number[] }[] = [];
  const warnings = new Set<string>();
  const overlaps: string[] = [];

  queries(rdkit).forEach((query, i) => {
    const { group, owns, warning } = JOBACK_PATTERNS[i];
    const matches = substructMatches(mol, query);
    const seen = new Set<string>();
    for (const match of matches) {
      const owned = match.atoms.slice(0, owns);
      const key = [...owned].sort((x, y) => x - y).join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      const taken = owned.filter((a) => owner[a] !== undefined);
      if (taken.length === owned.length) continue; // already covered by a group tried earlier
      if (taken.length > 0) {
        overlaps.push(
          `${group} at atoms ${owned.join(', ')} overlaps ${[...new Set(taken.map((a) => owner[a]))].join(', ')}`,
        );
        continue;
      }
      for (const a of owned) owner[a] = group;
      assignments.push({ group, atoms: owned });
      if (warning) warnings.add(warning);
    }
  });

  const unassigned = atoms.flatMap((description, index) =>
    owner[index] === undefined ? [`atom ${index} (${description})`] : [],
  );
  if (unassigned.length > 0) {
    throw new ToolError(
      'missing_data',
      `Joback's table has no group for ${unassigned.join('; ')} in "${smiles}", so the method cannot be applied (its 41 groups cover C, H, O, N, S and halogens in common bonding; atoms count from 0 in SMILES order).`,
      { smiles, unassigned_atoms: unassigned, ...(assignments.length > 0 ? { groups_found: assignments } : {}) },
    );
  }
  if (overlaps.length > 0) {
    warnings.add(
      `Joback's table has no group for this arrangement (e.g. an anhydride or carbonate); it was split into the groups listed, one of several possible decompositions: ${overlaps.join('; ')}.`,
    );
  }
  if (assignments.some((a) => a.group === '-COO- (ester)' && ringAtom(mol, a.atoms[2]))) {
    warnings.add("The ester group is in a ring (a lactone); Joback's -COO- group was fitted to open-chain esters.");
  }
  if (!atoms.some((description) => description.startsWith('C,')))
    warnings.add("The molecule has no carbon; Joback's method was fitted to organic compounds.");

  const counts: Record<string, number> = {};
  for (const { group } of assignments) counts[group] = (counts[group] ?? 0) + 1;
  const identity = inchiIdentity(mol);
  return {
    counts,
    assignments,
    atomCount: mol.get_num_atoms() + implicitHydrogens(mol),
    canonicalSmiles,
    ...(identity ? { formula: identity.formula } : {}),
    warnings: [...warnings],
  };
}

interface JsonAtom {
  z?: number;
  impHs?: number;
}
interface MolJson {
  defaults: { atom: Required<JsonAtom> };
  molecules: { atoms: JsonAtom[]; bonds?: { atoms: [number, number] }[] }[];
}

function molJson(mol: Molecule): MolJson {
  return JSON.parse(mol.get_json()) as MolJson;
}

function implicitHydrogens(mol: Molecule): number {
  const json = molJson(mol);
  return json.molecules[0].atoms.reduce((sum, atom) => sum + (atom.impHs ?? json.defaults.atom.impHs), 0);
}

// prettier-ignore
const SYMBOLS = (
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
  'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re ' +
  'Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl ' +
  'Mc Lv Ts Og'
).split(' ');

/** "C, 4 neighbours, 0 H" for each atom, in index order. */
function atomDescriptions(mol: Molecule): string[] {
  const json = molJson(mol);
  const { atoms, bonds = [] } = json.molecules[0];
  const degree = atoms.map(() => 0);
  for (const {
    atoms: [i, j],
  } of bonds) {
    degree[i]++;
    degree[j]++;
  }
  return atoms.map((atom, i) => {
    const z = atom.z ?? json.defaults.atom.z;
    const h = atom.impHs ?? json.defaults.atom.impHs;
    return `${SYMBOLS[z - 1] ?? `Z=${z}`}, ${degree[i]} heavy neighbour${degree[i] === 1 ? '' : 's'}, ${h} H`;
  });
}

/** Every match of `query` in `mol` (MinimalLib answers "{}", not "[]", when there is none). */
function substructMatches(mol: Molecule, query: Molecule): { atoms: number[] }[] {
  const matches: unknown = JSON.parse(
    guarded(() => mol.get_substruct_matches(query, JSON.stringify({ maxMatches: 100_000 }))),
  );
  return Array.isArray(matches) ? matches : [];
}

function ringAtom(mol: Molecule, index: number): boolean {
  const query = loadedRDKit()!.get_qmol('[R]')!;
  try {
    return substructMatches(mol, query).some((m) => m.atoms[0] === index);
  } finally {
    query.delete();
  }
}
