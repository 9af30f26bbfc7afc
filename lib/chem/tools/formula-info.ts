/**
 * service_formula_info: what a molecular formula says by itself — Hill formula, molar mass with its
 * uncertainty, monoisotopic and nominal mass, element counts and mass percentages — for formulas as
 * chemists write them (groups, hydrates, charges; see ../formula.ts).
 */
import { ATOMIC_WEIGHT_UNCERTAINTIES, ATOMIC_WEIGHTS, ATOMIC_WEIGHTS_SOURCE } from '../atomic-weights.ts';
import { CODATA_2018_SOURCE, ELECTRON_MASS_DA } from '../constants.ts';
import {
  type ElementCounts,
  hillFormula,
  MAX_FORMULA_LENGTH,
  molarMass,
  monoisotopicMass,
  nominalMass,
  readFormula,
} from '../formula.ts';
import { ISOTOPE_MASSES_SOURCE, MOST_ABUNDANT_ISOTOPES } from '../isotope-masses.ts';
import { looksLikeName } from '../rdkit.ts';
import { type ChemTool, type JsonSchema, ToolError } from '../tool.ts';
import {
  NAMED_COMPOUND_SCHEMA,
  type NamedCompound,
  STRUCTURE_NAME_ARGUMENT,
  structureFrom,
} from './structure-argument.ts';

export interface FormulaInfoArgs {
  formula?: string;
  compound_name?: string;
}

interface Quantity {
  value: number;
  unit: string;
  method: string;
  source: string;
}

export interface ElementInfo {
  symbol: string;
  count: number;
  /** Standard atomic weight used, g/mol. */
  atomic_weight: number;
  /** Share of the formula's mass, %, of neutral atoms. */
  mass_percent: number;
  most_abundant_isotope: { mass_number: number; mass: number };
}

export interface FormulaInfoResult {
  input: string;
  compound?: NamedCompound;
  formula: string;
  ion_formula?: string;
  charge: number;
  components?: { as_written: string; coefficient: number; formula: string }[];
  element_counts: Record<string, number>;
  elements: ElementInfo[];
  molar_mass: Quantity & { uncertainty: number };
  monoisotopic_mass?: Quantity;
  nominal_mass?: Quantity;
  warnings?: string[];
}

/** Relative spread of an atomic weight in natural materials above which a result says so. */
const VARIABLE_WEIGHT = 1e-3;

const quantitySchema = (unit: string, description: string, extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  description,
  properties: {
    value: { type: 'number' },
    unit: { type: 'string', const: unit },
    method: { type: 'string' },
    source: { type: 'string' },
    ...extra,
  },
  required: ['value', 'unit', 'method', 'source', ...Object.keys(extra)],
  additionalProperties: false,
});

const outputSchema: JsonSchema = {
  type: 'object',
  properties: {
    input: { type: 'string', description: 'The formula as given, or that of compound_name.' },
    compound: NAMED_COMPOUND_SCHEMA,
    formula: {
      type: 'string',
      description: 'Hill formula of the whole formula unit (hydrate water included), without charge.',
    },
    ion_formula: { type: 'string', description: 'Hill formula with its charge, e.g. "O4S^2-"; only for ions.' },
    charge: { type: 'integer', description: 'Net charge in elementary charges.' },
    components: {
      type: 'array',
      description: 'The parts of a hydrate or adduct (CuSO4·5H2O → CuSO4 ×1, H2O ×5); omitted for a single part.',
      items: {
        type: 'object',
        properties: {
          as_written: { type: 'string' },
          coefficient: { type: 'number', exclusiveMinimum: 0 },
          formula: { type: 'string', description: 'Hill formula of one unit of the part.' },
        },
        required: ['as_written', 'coefficient', 'formula'],
        additionalProperties: false,
      },
    },
    element_counts: {
      type: 'object',
      description: 'Atoms of each element per formula unit, in Hill order.',
      additionalProperties: { type: 'number', exclusiveMinimum: 0 },
    },
    elements: {
      type: 'array',
      description:
        'Per element, in Hill order: count, standard atomic weight (g/mol), mass percent, most abundant isotope (mass number, mass in Da).',
      items: {
        type: 'object',
        properties: {
          symbol: { type: 'string' },
          count: { type: 'number', exclusiveMinimum: 0 },
          atomic_weight: { type: 'number', description: 'g/mol' },
          mass_percent: { type: 'number', minimum: 0, maximum: 100 },
          most_abundant_isotope: {
            type: 'object',
            properties: { mass_number: { type: 'integer' }, mass: { type: 'number', description: 'Da' } },
            required: ['mass_number', 'mass'],
            additionalProperties: false,
          },
        },
        required: ['symbol', 'count', 'atomic_weight', 'mass_percent', 'most_abundant_isotope'],
        additionalProperties: false,
      },
    },
    molar_mass: quantitySchema('g/mol', 'Molar mass (average, natural isotopic composition).', {
      uncertainty: {
        type: 'number',
        minimum: 0,
        description: 'g/mol: Σ count × uncertainty of each atomic weight (natural variation included).',
      },
    }),
    monoisotopic_mass: quantitySchema(
      'Da',
      'Mass of the formula built from each element\'s most abundant isotope (the "exact mass" of mass spectrometry); omitted for fractional formulas.',
    ),
    nominal_mass: quantitySchema(
      'Da',
      'Sum of the mass numbers of those isotopes (an integer); omitted for fractional formulas.',
    ),
    warnings: { type: 'array', items: { type: 'string' } },
  },
  required: ['input', 'formula', 'charge', 'element_counts', 'elements', 'molar_mass'],
  additionalProperties: false,
};

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_formula_infoArguments',
  properties: {
    formula: {
      type: 'string',
      title: 'Formula',
      minLength: 1,
      maxLength: MAX_FORMULA_LENGTH,
      description:
        'Molecular formula, e.g. "C6H12O6", "Ca(OH)2", "K4[Fe(CN)6]", "CuSO4·5H2O" (also "CuSO4.5H2O", "CuSO4*5H2O"), "CaSO4·0.5H2O", "SO4^2-", "NH4+", "[Fe(CN)6]3-", "H₂O". Give this or compound_name.',
    },
    compound_name: STRUCTURE_NAME_ARGUMENT,
  },
  // The structure or compound_name, exactly one: checked by run() with a message saying so (a top-level
  // oneOf is refused by some clients' function-calling schemas).
  required: [],
  minProperties: 1,
  additionalProperties: false,
};

const round = (x: number, decimals = 6) => Number(x.toFixed(decimals));

function chargeSuffix(charge: number): string {
  const sign = charge < 0 ? '-' : '+';
  return `^${Math.abs(charge) === 1 ? '' : Math.abs(charge)}${sign}`;
}

/** The counts reordered in Hill order, so the JSON object reads like the formula. */
function inHillOrder(counts: ElementCounts): [string, number][] {
  const order = hillFormula(counts).match(/[A-Z][a-z]?/g)!;
  return order.map((symbol) => [symbol, counts[symbol]]);
}

/** readFormula, with a pointer to compound_name when the formula looks like a compound's name ("ethanol"). */
function readGivenFormula(formula: string): ReturnType<typeof readFormula> {
  try {
    return readFormula(formula);
  } catch (error) {
    if (!(error instanceof ToolError) || !looksLikeName(formula.trim())) throw error;
    throw new ToolError(
      error.code,
      `${error.message} If "${formula.trim()}" is a compound name, pass it as compound_name instead (service_query_compound looks names up).`,
      error.details,
    );
  }
}

export const formulaInfoTool = {
  name: 'service_formula_info',
  title: 'Formula information',
  description: [
    'Read a molecular formula and return its Hill formula, molar mass (g/mol, with uncertainty), monoisotopic mass (Da), nominal mass, element counts and mass percent of each element.',
    'Accepts groups with multipliers in (), [] or {} ("Ca(OH)2", "K4[Fe(CN)6]"), hydrates and adducts joined by ·, ., * or • with optional coefficients ("CuSO4·5H2O", "CuSO4.5H2O", "CaSO4·0.5H2O", "K2SO4·Al2(SO4)3·24H2O"), subscript digits, and a charge at the end ("SO4^2-", "SO4 2-", "SO4-2", "SO4--", "SO₄²⁻", "NH4+", "[Fe(CN)6]3-"; "Fe3+" is read as Fe with charge 3+).',
    "Molar mass: sum of IUPAC 2021 standard atomic weights (conventional values for interval elements such as H, C, O, S), with Σ count × uncertainty; monoisotopic mass: sum of AME2020 masses of each element's most abundant isotope. For ions both subtract charge × electron mass (CODATA 2018).",
    'Instead of formula, compound_name takes a compound name, CAS number or InChIKey ("caffeine", from the measured catalogue or the PubChem name table) and reads its formula; the result then names the compound under compound.',
    'Covers the 84 elements that have a standard atomic weight (H–Bi, Th, Pa, U). An unknown element, a radioactive element without a standard atomic weight, an unbalanced bracket or a stray character is an error naming its position.',
  ].join(' '),
  inputSchema,
  outputSchema,
  run({ formula: givenFormula, compound_name }) {
    const structure = structureFrom('formula', givenFormula, compound_name);
    const formula = 'given' in structure ? structure.given : structure.formula;
    const compound = 'given' in structure ? undefined : structure.compound;
    const parsed = readGivenFormula(formula);
    const { counts, charge } = parsed;
    const ordered = inHillOrder(counts);
    const hill = hillFormula(counts);
    const neutralMass = molarMass(counts);
    const ionic = charge !== 0;
    const fractional = Object.values(counts).some((n) => !Number.isInteger(n));
    const warnings = [...parsed.notes];

    let uncertainty = 0;
    for (const [symbol, n] of ordered) {
      uncertainty += n * ATOMIC_WEIGHT_UNCERTAINTIES[symbol];
      const spread = ATOMIC_WEIGHT_UNCERTAINTIES[symbol] / ATOMIC_WEIGHTS[symbol];
      if (spread > VARIABLE_WEIGHT) {
        warnings.push(
          `The atomic weight of ${symbol} varies in natural materials: ${ATOMIC_WEIGHTS[symbol]} ± ${ATOMIC_WEIGHT_UNCERTAINTIES[symbol]} g/mol (IUPAC 2021); a specific sample may differ.`,
        );
      }
    }
    if (fractional) {
      warnings.push(
        'Some counts are fractional (a coefficient such as 0.5): values are per formula unit as written; monoisotopic and nominal masses are omitted because no single molecule has them.',
      );
    }

    const electrons = ionic
      ? `, minus charge × electron mass (${ELECTRON_MASS_DA.toExponential()} Da, CODATA 2018)`
      : '';
    const withCodata = (source: string) => (ionic ? `${source}; electron mass: ${CODATA_2018_SOURCE}` : source);

    return {
      input: formula,
      ...(compound ? { compound } : {}),
      formula: hill,
      ...(ionic ? { ion_formula: `${hill}${chargeSuffix(charge)}` } : {}),
      charge,
      ...(parsed.components.length > 1
        ? {
            components: parsed.components.map((c) => ({
              as_written: c.text,
              coefficient: c.coefficient,
              formula: hillFormula(c.counts),
            })),
          }
        : {}),
      element_counts: Object.fromEntries(ordered),
      elements: ordered.map(([symbol, n]) => ({
        symbol,
        count: n,
        atomic_weight: ATOMIC_WEIGHTS[symbol],
        mass_percent: round((100 * n * ATOMIC_WEIGHTS[symbol]) / neutralMass, 4),
        most_abundant_isotope: {
          mass_number: MOST_ABUNDANT_ISOTOPES[symbol].massNumber,
          mass: MOST_ABUNDANT_ISOTOPES[symbol].mass,
        },
      })),
      molar_mass: {
        value: round(molarMass(counts, charge)),
        unit: 'g/mol',
        method: `sum of IUPAC 2021 standard atomic weights (conventional values for interval elements)${electrons}`,
        source: withCodata(ATOMIC_WEIGHTS_SOURCE),
        uncertainty: round(uncertainty),
      },
      ...(fractional
        ? {}
        : {
            monoisotopic_mass: {
              value: round(monoisotopicMass(counts, charge)),
              unit: 'Da',
              method: `sum of the atomic masses of each element's most abundant isotope${electrons}`,
              source: withCodata(ISOTOPE_MASSES_SOURCE),
            },
            nominal_mass: {
              value: nominalMass(counts),
              unit: 'Da',
              method: "sum of the mass numbers of each element's most abundant isotope",
              source: ISOTOPE_MASSES_SOURCE,
            },
          }),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
} satisfies ChemTool<FormulaInfoArgs, FormulaInfoResult>;
