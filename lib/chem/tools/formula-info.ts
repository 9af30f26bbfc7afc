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
import { defineTool, type JsonSchema, ToolError } from '../tool.ts';
import { answerSchema, NUMBER, objectOf, QUANTITY, STRING, WARNINGS } from './answer-schema.ts';
import {
  NAMED_COMPOUND_SCHEMA,
  type NamedCompound,
  STRUCTURE_NAME_ARGUMENT,
  STRUCTURE_NAME_DETAILS,
  structureFrom,
} from './structure-argument.ts';

interface FormulaInfoArgs {
  formula?: string;
  compound_name?: string;
}

interface Quantity {
  value: number;
  unit: string;
  method: string;
  source: string;
  /** Ions only: the citation of the electron mass subtracted. */
  electron_mass_source?: string;
}

/** Per element; its count is in element_counts, not repeated here. */
interface ElementInfo {
  symbol: string;
  /** Standard atomic weight used, g/mol. */
  atomic_weight: number;
  /** Share of the formula's mass, %, of neutral atoms. */
  mass_percent: number;
  most_abundant_isotope: { mass_number: number; mass: number };
}

interface FormulaInfoResult {
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

const outputSchema = answerSchema(
  {
    input: STRING,
    compound: NAMED_COMPOUND_SCHEMA,
    formula: STRING,
    ion_formula: STRING,
    charge: { type: 'integer' },
    components: {
      type: 'array',
      items: objectOf({ as_written: STRING, coefficient: NUMBER, formula: STRING }),
    },
    element_counts: { type: 'object', additionalProperties: NUMBER },
    elements: {
      type: 'array',
      items: objectOf({
        symbol: STRING,
        atomic_weight: NUMBER,
        mass_percent: NUMBER,
        most_abundant_isotope: objectOf({ mass_number: { type: 'integer' }, mass: NUMBER }),
      }),
    },
    // Quantities; molar_mass also has its uncertainty, an ion's masses the electron_mass_source.
    molar_mass: QUANTITY,
    monoisotopic_mass: QUANTITY,
    nominal_mass: QUANTITY,
    warnings: WARNINGS,
  },
  ['compound', 'ion_formula', 'components', 'monoisotopic_mass', 'nominal_mass', 'warnings'],
);

const inputSchema: JsonSchema = {
  type: 'object',
  title: 'service_formula_infoArguments',
  properties: {
    formula: {
      type: 'string',
      title: 'Formula',
      minLength: 1,
      maxLength: MAX_FORMULA_LENGTH,
      description: 'E.g. "C6H12O6", "K4[Fe(CN)6]", "CuSO4·5H2O", "SO4^2-".',
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

export const formulaInfoTool = defineTool<FormulaInfoArgs, FormulaInfoResult>({
  name: 'service_formula_info',
  title: 'Formula information',
  description: [
    'What a molecular formula says by itself: Hill formula, molar mass (g/mol, IUPAC 2021 atomic weights, with uncertainty), monoisotopic and nominal mass (Da), element counts and mass percentages.',
    'Give formula or compound_name.',
    'Reads groups, hydrates, subscripts and charges; ion masses subtract the electrons.',
    'An unknown element or a syntax error is an error naming its position.',
  ].join(' '),
  details: [
    'formula accepts groups with multipliers in (), [] or {} ("Ca(OH)2", "K4[Fe(CN)6]"), hydrates and adducts joined by ·, ., * or • with optional coefficients ("CuSO4·5H2O", "CuSO4.5H2O", "CuSO4*5H2O", "CaSO4·0.5H2O", "K2SO4·Al2(SO4)3·24H2O"), subscript digits ("H₂O"), and a charge at the end ("SO4^2-", "SO4 2-", "SO4-2", "SO4--", "SO₄²⁻", "NH4+", "[Fe(CN)6]3-"; "Fe3+" is read as Fe with charge 3+, as a warning says). A formula that looks like a compound name ("ethanol") is an error pointing to compound_name.',
    STRUCTURE_NAME_DETAILS,
    'Returns input (the formula as given, or that of compound_name), formula (Hill formula of the whole formula unit, hydrate water included, without charge), ion_formula (with its charge, e.g. "O4S^2-"; ions only), charge, components (the parts of a hydrate or adduct: CuSO4·5H2O → CuSO4 ×1, H2O ×5; omitted for a single part), element_counts (atoms per formula unit, Hill order), elements (per element, Hill order: standard atomic weight in g/mol, mass percent of neutral atoms, most abundant isotope with its mass number and mass in Da), molar_mass, monoisotopic_mass and nominal_mass.',
    'molar_mass (g/mol, natural isotopic composition): sum of IUPAC 2021 standard atomic weights, conventional values for interval elements such as H, C, O, S; its uncertainty is Σ count × the uncertainty of each atomic weight (natural variation included), and a warning names each element whose weight varies in natural materials by more than 0.1 %. monoisotopic_mass (Da, the "exact mass" of mass spectrometry): sum of AME2020 masses of each element\'s most abundant isotope; nominal_mass: sum of their mass numbers. For ions both subtract charge × electron mass and cite it as electron_mass_source (CODATA 2018). A formula with fractional counts ("CaSO4·0.5H2O") is per formula unit as written and has no monoisotopic or nominal mass (a warning says why).',
    'Covers the 84 elements that have a standard atomic weight (H–Bi, Th, Pa, U). An unknown element, a radioactive element without a standard atomic weight, an unbalanced bracket or a stray character is an error (invalid_arguments) naming its position.',
    'Precision: atomic weights and isotope masses are exact data, so the masses are given to 6 decimals and mass percentages to 4, unrounded otherwise.',
  ],
  inputSchema,
  outputSchema,
  example: { formula: 'CuSO4·5H2O' },
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

    const electrons = ionic ? `, minus charge × electron mass (${ELECTRON_MASS_DA.toExponential()} Da)` : '';
    const electronMassSource = ionic ? { electron_mass_source: CODATA_2018_SOURCE } : {};

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
        method: `Σ count × standard atomic weight${electrons}`,
        source: ATOMIC_WEIGHTS_SOURCE,
        ...electronMassSource,
        uncertainty: round(uncertainty),
      },
      ...(fractional
        ? {}
        : {
            monoisotopic_mass: {
              value: round(monoisotopicMass(counts, charge)),
              unit: 'Da',
              method: `Σ count × mass of the most abundant isotope${electrons}`,
              source: ISOTOPE_MASSES_SOURCE,
              ...electronMassSource,
            },
            nominal_mass: {
              value: nominalMass(counts),
              unit: 'Da',
              method: 'Σ count × mass number of the most abundant isotope',
              source: ISOTOPE_MASSES_SOURCE,
            },
          }),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
});
