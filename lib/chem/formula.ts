/**
 * Molecular formulas: read them as chemists write them, write them in Hill order, and sum masses.
 *
 * `readFormula` accepts element symbols with counts, nested (…), […] and {…} groups with
 * multipliers ("Ca(OH)2", "K4[Fe(CN)6]"), hydrates and adducts joined by ·, ., * or • with an
 * optional (decimal) coefficient ("CuSO4·5H2O", "CuSO4.5H2O", "CaSO4·0.5H2O", "K2SO4·Al2(SO4)3·24H2O"),
 * subscript digits ("H₂O") and a charge at the end ("SO4^2-", "SO4 2-", "SO4-2", "SO4--", "SO₄²⁻",
 * "NH4+", "[Fe(CN)6]3-", "Fe3+"). Mistakes are ToolErrors that name the position and the problem.
 * `parseFormula` is the strict form the compound data uses: one neutral formula unit, no spaces.
 */
import { ATOMIC_WEIGHTS, ELEMENTS_WITHOUT_STANDARD_WEIGHT } from './atomic-weights.ts';
import { ELECTRON_MASS_DA } from './constants.ts';
import { MOST_ABUNDANT_ISOTOPES } from './isotope-masses.ts';
import { ToolError } from './tool.ts';

export type ElementCounts = Readonly<Record<string, number>>;

interface FormulaComponent {
  /** The part as written (normalised), e.g. "5H2O". */
  text: string;
  /** How many of this part per formula unit: 5 in "CuSO4·5H2O"; 1 for the first part. */
  coefficient: number;
  /** Element counts of one unit of the part, without the coefficient. */
  counts: ElementCounts;
}

interface ParsedFormula {
  /** Element counts of the whole formula unit, every part and coefficient included. */
  counts: ElementCounts;
  /** Net charge in elementary charges (−2 for "SO4^2-"). */
  charge: number;
  /** The parts joined by ·, ., * (one part for a plain formula). */
  components: FormulaComponent[];
  /** How an ambiguous text was read ("Fe3+" as Fe with charge 3+), for the caller to show. */
  notes: string[];
}

/** Longest formula readFormula accepts; far beyond any real formula, and it bounds the work. */
export const MAX_FORMULA_LENGTH = 200;

const SUPERSCRIPTS: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁺': '+',
  '⁻': '-',
};
const SEPARATORS = new Set(['·', '•', '∙', '⋅', '・', '*', '.']);
const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/**
 * The text with superscripts made a "^charge" (so "SO₄²⁻" keeps its meaning), subscripts and
 * full-width characters made ASCII, and minus signs made "-".
 */
function normalise(text: string): string {
  return text
    .replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+/g, (run) => `^${[...run].map((c) => SUPERSCRIPTS[c]).join('')}`)
    .normalize('NFKC')
    .replace(/[−–]/g, '-')
    .trim();
}

function invalid(message: string, details?: Record<string, unknown>): ToolError {
  return new ToolError('invalid_arguments', message, details);
}

interface ChargeReading {
  body: string;
  charge: number;
  note?: string;
}

/** Splits a trailing charge off the formula; see the module comment for the accepted forms. */
function readCharge(s: string): ChargeReading {
  const signed = (sign: string, magnitude: number) => (sign === '-' ? -magnitude : magnitude);

  // "SO4^2-", "SO4^-2", "NH4^+", "SO4^(2-)", "SO4^--"
  const caret = /\^\(?([0-9+-]*)\)?$/.exec(s);
  if (caret) {
    const inner = caret[1];
    const form = /^([0-9]+)([+-])$/.exec(inner) ?? /^([+-])([0-9]+)$/.exec(inner);
    if (form) {
      const [digits, sign] = /[0-9]/.test(form[1]) ? [form[1], form[2]] : [form[2], form[1]];
      return { body: s.slice(0, caret.index), charge: signed(sign, Number(digits)) };
    }
    if (/^(\++|-+)$/.test(inner)) return { body: s.slice(0, caret.index), charge: signed(inner[0], inner.length) };
    throw invalid(`Cannot read the charge "${caret[0]}": write it like ^2-, ^-2 or ^+.`);
  }
  // "SO4 2-", "NH4 +": a space sets the charge apart.
  const spaced = /\s+([0-9]*)([+-])$/.exec(s);
  if (spaced) {
    return { body: s.slice(0, spaced.index), charge: signed(spaced[2], spaced[1] === '' ? 1 : Number(spaced[1])) };
  }
  // "SO4-2", "Fe+3": sign before the magnitude.
  const signFirst = /([+-])([0-9]+)$/.exec(s);
  if (signFirst) {
    return { body: s.slice(0, signFirst.index), charge: signed(signFirst[1], Number(signFirst[2])) };
  }
  // "SO4--", "Cl-", "NH4+", "[Fe(CN)6]3-", "Fe3+": sign(s) last.
  const signsLast = /([+-]+)$/.exec(s);
  if (signsLast) {
    const signs = signsLast[1];
    if (new Set(signs).size !== 1) throw invalid(`Cannot read the charge "${signs}" at the end of "${s}".`);
    const before = s.slice(0, signsLast.index);
    const digits = /([0-9]+)$/.exec(before);
    if (signs.length > 1 || !digits) return { body: before, charge: signed(signs[0], signs.length) };
    const rest = before.slice(0, digits.index);
    const magnitude = Number(digits[1]);
    if (/[)\]}]$/.test(rest)) return { body: rest, charge: signed(signs, magnitude) };
    if (/^[A-Z][a-z]?$/.test(rest)) {
      return {
        body: rest,
        charge: signed(signs, magnitude),
        note: `"${s}" was read as one ${rest} atom with charge ${magnitude}${signs}; for ${rest}${magnitude} with charge 1${signs}, write ${rest}${magnitude}^${signs}.`,
      };
    }
    return {
      body: before,
      charge: signed(signs, 1),
      ...(digits[1].length > 1
        ? {
            note: `"${s}" was read as ${before} with charge 1${signs}; if the last digit is the charge, write ${rest}${digits[1].slice(0, -1)}^${digits[1].slice(-1)}${signs} (or with a space: "${rest}${digits[1].slice(0, -1)} ${digits[1].slice(-1)}${signs}").`,
          }
        : {}),
    };
  }
  return { body: s, charge: 0 };
}

/** Reads `text` as a formula; throws ToolError('invalid_arguments') naming the position and problem. */
export function readFormula(text: string): ParsedFormula {
  if (text.length > MAX_FORMULA_LENGTH) throw invalid(`The formula is longer than ${MAX_FORMULA_LENGTH} characters.`);
  const s = normalise(text);
  if (s === '') throw invalid('The formula is empty.');
  const { body, charge, note } = readCharge(s);
  if (!/[A-Za-z]/.test(body)) throw invalid(`"${text}" contains no element symbol.`);

  const components: FormulaComponent[] = [];
  let i = 0;
  const at = (index: number) => `at position ${index + 1}`;
  const skipSpace = () => {
    while (i < body.length && /\s/.test(body[i])) i++;
  };

  const readCount = (): number => {
    const digits = /^[0-9]+/.exec(body.slice(i));
    if (!digits) return 1;
    if (digits[0].startsWith('0'))
      throw invalid(`The count "${digits[0]}" ${at(i)} must be a whole number of 1 or more without leading zeros.`);
    i += digits[0].length;
    return Number(digits[0]);
  };

  const readSymbol = (): string => {
    const symbol = /^[A-Z][a-z]?/.exec(body.slice(i))![0];
    if (!Object.hasOwn(ATOMIC_WEIGHTS, symbol)) {
      if (ELEMENTS_WITHOUT_STANDARD_WEIGHT.includes(symbol)) {
        throw invalid(
          `${symbol} ${at(i)} has no standard atomic weight (no stable isotope), so its molar mass depends on the isotope; it is not supported.`,
        );
      }
      if (symbol === 'D' || symbol === 'T') {
        throw invalid(
          `${symbol} ${at(i)} is an isotope label (${symbol === 'D' ? 'deuterium' : 'tritium'}), not an element symbol; isotope-labelled formulas are not supported.`,
        );
      }
      throw invalid(`Unknown element symbol "${symbol}" ${at(i)}.`);
    }
    i += symbol.length;
    return symbol;
  };

  const readComponent = (first: boolean): FormulaComponent => {
    skipSpace();
    const start = i;
    let coefficient = 1;
    const number = /^[0-9]+(\.[0-9]+)?/.exec(body.slice(i));
    if (number) {
      if (first)
        throw invalid(
          `The formula starts with a number ${at(i)}: give one formula unit ("H2O", not "2H2O"); a coefficient is only read before a hydrate or adduct part ("CuSO4·5H2O").`,
        );
      coefficient = Number(number[0]);
      if (!(coefficient > 0)) throw invalid(`The coefficient "${number[0]}" ${at(i)} must be greater than 0.`);
      i += number[0].length;
    }
    const stack: { counts: Record<string, number>; open: string; position: number }[] = [
      { counts: {}, open: '', position: i },
    ];
    const add = (into: Record<string, number>, symbol: string, n: number) => {
      into[symbol] = (into[symbol] ?? 0) + n;
    };

    while (i < body.length && !SEPARATORS.has(body[i])) {
      const ch = body[i];
      if (/\s/.test(ch)) {
        i++;
      } else if (ch in CLOSING) {
        stack.push({ counts: {}, open: ch, position: i });
        i++;
      } else if (ch === ')' || ch === ']' || ch === '}') {
        const group = stack.pop()!;
        if (stack.length === 0) throw invalid(`"${ch}" ${at(i)} closes a bracket that was never opened.`);
        if (CLOSING[group.open] !== ch) {
          throw invalid(`"${ch}" ${at(i)} does not match "${group.open}" opened ${at(group.position)}.`);
        }
        if (Object.keys(group.counts).length === 0)
          throw invalid(`The group "${group.open}${ch}" ${at(group.position)} is empty.`);
        i++;
        const n = readCount();
        for (const [symbol, c] of Object.entries(group.counts)) add(stack[stack.length - 1].counts, symbol, c * n);
      } else if (/[A-Z]/.test(ch)) {
        const symbol = readSymbol();
        add(stack[stack.length - 1].counts, symbol, readCount());
      } else if (/[a-z]/.test(ch)) {
        throw invalid(`"${ch}" ${at(i)} is lowercase: element symbols start with a capital letter ("CO2", "NaCl").`);
      } else if (/[0-9]/.test(ch)) {
        throw invalid(`The number ${at(i)} follows nothing it could count.`);
      } else {
        throw invalid(`Unexpected character "${ch}" ${at(i)}.`);
      }
    }
    if (stack.length > 1) {
      const open = stack[stack.length - 1];
      throw invalid(`"${open.open}" ${at(open.position)} is never closed.`);
    }
    const counts = stack[0].counts;
    if (Object.keys(counts).length === 0)
      throw invalid(`Expected a formula ${at(start)}${start >= body.length ? ' (the text ends)' : ''}.`);
    return { text: body.slice(start, i).trim(), coefficient, counts };
  };

  components.push(readComponent(true));
  while (i < body.length) {
    i++; // a separator
    components.push(readComponent(false));
  }

  const counts: Record<string, number> = {};
  for (const part of components) {
    for (const [symbol, n] of Object.entries(part.counts))
      counts[symbol] = (counts[symbol] ?? 0) + n * part.coefficient;
  }
  return { counts, charge, components, notes: note ? [note] : [] };
}

/**
 * Element counts of `text`, or undefined when it is not one neutral formula unit of known elements
 * written without spaces (unknown symbol, stray character, unbalanced brackets, zero count, charge,
 * hydrate part). The compound data and the lookup use this strict form.
 */
export function parseFormula(text: string): ElementCounts | undefined {
  if (/\s/.test(text)) return undefined;
  try {
    const parsed = readFormula(text);
    return parsed.charge === 0 && parsed.components.length === 1 ? parsed.counts : undefined;
  } catch (error) {
    if (error instanceof ToolError) return undefined;
    throw error;
  }
}

/**
 * Hill system order (Hill, J. Am. Chem. Soc. 22 (1900) 478): with carbon, C first, then H, then the
 * rest alphabetically; without carbon, all symbols alphabetically. A count of 1 is not written.
 */
export function hillFormula(counts: ElementCounts): string {
  const symbols = Object.keys(counts);
  const ordered =
    'C' in counts
      ? ['C', ...('H' in counts ? ['H'] : []), ...symbols.filter((s) => s !== 'C' && s !== 'H').sort()]
      : symbols.sort();
  return ordered.map((s) => (counts[s] === 1 ? s : `${s}${counts[s]}`)).join('');
}

/**
 * Molar mass, g/mol: sum of IUPAC 2021 standard atomic weights (see atomic-weights.ts); for an ion,
 * minus charge × the electron's molar mass (5.485799e-4 g/mol), since atomic weights are of neutral atoms.
 * Example: C6H12O6 → 180.156 g/mol.
 */
export function molarMass(counts: ElementCounts, charge = 0): number {
  let sum = 0;
  for (const [symbol, n] of Object.entries(counts)) sum += ATOMIC_WEIGHTS[symbol] * n;
  return sum - charge * ELECTRON_MASS_DA;
}

/**
 * Monoisotopic mass, Da: the mass of the formula made of each element's most abundant isotope
 * (AME2020 masses, see isotope-masses.ts), minus charge × the electron mass (CODATA 2018) for an ion.
 * Example: aspirin C9H8O4 → 180.042259 Da.
 */
export function monoisotopicMass(counts: ElementCounts, charge = 0): number {
  let sum = 0;
  for (const [symbol, n] of Object.entries(counts)) sum += MOST_ABUNDANT_ISOTOPES[symbol].mass * n;
  return sum - charge * ELECTRON_MASS_DA;
}

/** Nominal mass: the sum of the mass numbers of the most abundant isotopes (C9H8O4 → 180). */
export function nominalMass(counts: ElementCounts): number {
  let sum = 0;
  for (const [symbol, n] of Object.entries(counts)) sum += MOST_ABUNDANT_ISOTOPES[symbol].massNumber * n;
  return sum;
}
